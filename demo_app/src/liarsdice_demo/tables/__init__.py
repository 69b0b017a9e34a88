"""The live tables: the hub, a table and its parts, and what a table is built from.

A table's parts are the game loop, the seats, the bots, the clock, saving and the fan-out of
views; it is built from a composition, titled in the reader's language and counted toward caps.
"""
