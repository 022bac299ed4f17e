"""Study tools: measuring the value of cards (the balance lab)."""
