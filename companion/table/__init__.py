"""Table mode: one open game shared by several devices, each a referee, a seat or the board.
The hub opens tables (`hub`), a table keeps its devices in step (`table`), who may do and see
what (`access`), inputs collected from several players (`collect`), codes and tokens (`keys`)
and the addresses devices can reach (`network`).

May import: `models`, `companion.storage`, `companion.rules`, `companion.story`,
`companion.library`.
"""
