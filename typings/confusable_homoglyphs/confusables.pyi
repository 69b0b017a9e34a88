# The part of confusable-homoglyphs the demo uses (it ships no type information): Unicode's
# confusables.txt, each line kept both ways ({"c": the other text, "n": its Unicode name}).

confusables_data: dict[str, list[dict[str, str]]]
