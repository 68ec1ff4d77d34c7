"""A game put into words and pictures: the narrator (events and commands as messages:
`narrator`, with its parts in `narrator_parts`, `narrator_events` and `narrator_commands`),
their words for a device (`words`: names, card names, the one title of each phase and step),
the review timeline and charts, the share text and the scoreboard picture.

May import: `models`, `companion.rules`. No storage, no devices, no screens.
"""
