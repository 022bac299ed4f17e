"""Bots in any language: a line-based text protocol over a program's stdin and stdout
(docs/bot-protocol.md), the host side that runs a bot safely (:mod:`.host`), the built-in AIs
behind the protocol (:mod:`.builtin`, ``starcom bot``), matches between bots (:mod:`.match`,
``starcom match``) and a compliance checker (:mod:`.check`, ``starcom protocol-check``)."""
