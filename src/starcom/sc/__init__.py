"""Star Commander: its rules engine (:mod:`.engine`), cards (:mod:`.cards`) and everything the
platform's clients ask of it, behind its registry entry (:mod:`.entry`, the name ``"starcom"``)."""
