"""Star Commander in the full-screen terminal game: its board, hand and stack panels."""
