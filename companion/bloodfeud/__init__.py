"""Vampire: The Masquerade – Blood Feud, as far as its four station aids (seed 004) define it.

What lives here:

- `models`: the record of one Blood Feud session (teams with their colour, side and members, the
  Storyteller, the rounds played, the Council vote of each round, and the result exactly as the
  Storyteller enters it);
- `stations`: the four stations as reference cards in the project's own words, the sections
  §B1–§B10 that docs/bloodfeud.md is made from, and the lookups the aids key by a team's Power
  (bonus actions, the Store cap, blocking an Alliance, the order Orders resolve in);
- `council`: the Council vote tally (quorum, Voting Power, No Event, re-votes, the proposer's
  Ambition token, one vote per round), the checks of a whole session and `tally_file`;
- `errors`: `BloodFeudError`, the one narrow refusal, with a key, its values and the section.

There is no scoring: the aids give none, so the winner is whatever the Storyteller enters.

What it may import: the standard library, pydantic and the modules of this package. No Flet, no
storage, no file writing (`council.tally_file` only reads the file it is given) and nothing else
of `companion`, so the app, the CLI and the tests can all use it without loading anything more.
"""
