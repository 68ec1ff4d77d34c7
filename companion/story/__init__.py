"""A game put into words and pictures: the narrator (events and commands as messages),
the review timeline and charts, the share text and the scoreboard picture.

May import: `models`, `companion.rules`. No storage, no devices, no screens.
"""
