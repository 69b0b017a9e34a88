"""Print one SHA-256 per preset over the event logs of 40 seeded games (4 players x 3 dice, or
the nearest table the preset takes), played through ``liarsdice.Game`` by the random policy: two
builds of the core that print the same lines play the very same games (the compiled check
compares the pure and the mypyc builds with it)."""

from __future__ import annotations

import hashlib
from random import Random

from liarsdice import Game, Ruleset
from liarsdice.events import Event
from liarsdice.ruleset import presets
from liarsdice.serialization import dumps
from liarsdice.simulate import random_action

for preset, chosen in sorted(presets().items()):
    rules = Ruleset.build(preset=preset)
    players, dice = chosen.size.fit(4, 3)  # 4 x 3, or the nearest table the preset takes
    digest = hashlib.sha256()
    for seed in range(40):
        names = [f"p{i}" for i in range(players)]
        game = Game(rules, names, Random(seed), dice_per_player=dice)
        while not game.over:
            game.start_round()
            while not game.state.round.over:  # type: ignore[union-attr]
                game.act(random_action(rules, game.state, game.rng))
        digest.update(dumps(game.events, list[Event]).encode())
    print(preset, digest.hexdigest())
