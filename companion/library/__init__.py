"""The data folder as the app uses it: the session of one open game (play, undo, redo, save)
and the library of stored games (listing, statistics, import, export, backups, the catalogue).

May import: `models`, `companion.storage`, `companion.rules`, `companion.story`. The views and
the command line reach the store only through this room.
"""
