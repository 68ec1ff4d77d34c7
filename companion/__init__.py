"""The companion's code below the screens, in rooms; each room may import only the rooms
listed before it (and `models`), never one after it:

- `companion.storage` — the data folder: game files, the history index, backups on disk,
  the one-owner lock. Plain JSON dicts only.
- `companion.rules` — the Vendetta rules engine (commands → events, the pure fold, what is
  legal, card effects, scoring), the game log with undo/redo, the card catalogue and the rules
  reference. No I/O beyond the shipped data files.
- `companion.i18n` — languages: a translator per language from the gettext catalogues
  (plural forms, numbers, dates and lists written each language's way), the device's choice
  of language, the glossary of game terms per language.
- `companion.story` — a game put into words and pictures: the narrator, the review, the share
  text and scoreboard picture.
- `companion.library` — the data folder as the app uses it: the session of one open game and
  the library of stored games (listing, statistics, import, export, backups).
- `companion.table` — table mode: one open game shared by several devices, each in a role.
- `companion.cli` — the command line.
"""
