"""Card data (catalogue) and card effects (registered by card name)."""
from .catalogue import BY_NAME, CARD_DEF, DEFS, DOMAINS, CardDef, card

__all__ = ["BY_NAME", "CARD_DEF", "DEFS", "DOMAINS", "CardDef", "card"]
