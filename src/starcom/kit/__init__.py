"""The engine kit: game-neutral pieces both games' engines are built from.

* :mod:`.rng`: seeded generators behind one small protocol, each with a JSON form.
* :mod:`.codec`: typed actions and events as tuples tagged by their kind, their JSON (list)
  form and a word-by-word notation.
* :mod:`.effects`: a table of effect units by catalogue index and name, built once and held by
  a game's ruleset instead of a module global.

Nothing here imports a game: the games import the kit.
"""
