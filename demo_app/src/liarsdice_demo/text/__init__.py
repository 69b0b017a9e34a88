"""What a player reads: languages, the words of the log, rendering, charts and places.

Flask-Babel over the demo's catalogs, the narration of events and rulings, the rules page's
Markdown as safe HTML, the odds charts as SVG, and finishing places.
"""
