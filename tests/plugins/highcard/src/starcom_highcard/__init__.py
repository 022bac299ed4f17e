"""High Card, a game for starcom installed as a separate package: proof that a third party's
game plugs into every client (self-play, the arena, bots, the RL environments, the terminal, the
server and the browser) through the registry alone.

Modules: :mod:`.game` (the rules), :mod:`.observer` (every secret), :mod:`.text` (the English),
:mod:`.agents`, :mod:`.features` (for learning agents), :mod:`.invariants` (self-play's checks)
and :mod:`.entry`, whose ``ENTRY`` the ``starcom.games`` entry point names.
"""
