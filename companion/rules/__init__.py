"""The Vendetta rules engine and what it needs: commands → events (`engine`), the pure fold
(`apply`), what is legal now (`legal`), card effects (`effects`, `primitives`), rule queries
(`queries`), scoring (`scoring`), the game log with undo/redo (`game`), the clock, the card
catalogue and the rules reference.

May import: `models` and the standard library; reads only the shipped data files. Nothing
here knows about storage, devices or screens.
"""
