"""View logic through the app factory, no browser: taps are handler calls."""

import random

import flet as ft
import pytest

from companion.library.session import GameSession
from companion.rules.game import Game
from companion.storage import MemoryGameStore, TinyDBGameStore
from tests.fake_page import FakePage
from tests.ui import (
    autoplay_step,
    click,
    enter_ally,
    find,
    has,
    label,
    pick_ally,
    texts,
    type_in,
    value,
    walk,
)
from views.app import build, create_app
from views.state import AppState

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve"]


def new_game(app: AppState, n: int = 4, clans: tuple[str, ...] = ()) -> None:
    """Wizard → game → first player → clans (free choice when `clans` given)."""
    r = app.root
    click(r, "new-game")
    for i in range(n):
        if i >= 4:
            click(r, "add-player")
        type_in(r, f"name-{i}", NAMES[i])
    click(r, "create-game")
    click(r, "first-0")
    if clans:
        for clan in clans:
            click(r, f"clan-{clan}")
    else:
        click(r, "clans-draw")
        for _ in range(n):
            click(r, f"clan-{app.legal().clans[0]}")


@pytest.fixture
def app() -> AppState:
    return build(GameSession(MemoryGameStore()))


def test_factory_builds_a_page() -> None:
    page = FakePage()
    create_app(GameSession(MemoryGameStore()))(page)  # type: ignore[arg-type]
    assert page.title == "Vendetta Companion"
    assert [v.route for v in page.views] == ["/"] and page.views[0].controls


def test_home_lists_actions(app: AppState) -> None:
    for ident in ("new-game", "quick-score", "rules", "catalogue"):
        assert has(app.root, ident)


def test_wizard_needs_three_names(app: AppState) -> None:
    """Create game cannot be tapped before 3 names are in, and says so on itself."""
    click(app.root, "new-game")
    type_in(app.root, "name-0", "Ann")
    create = find(app.root, "create-game")
    assert create.disabled and "at least 3 player names (1 name so far)" in create.content
    type_in(app.root, "name-1", "Bob")
    assert "(2 names so far)" in find(app.root, "create-game").content
    type_in(app.root, "name-2", "Cat")
    assert find(app.root, "create-game").content == "Create game"
    type_in(app.root, "name-2", " ")  # emptied again: disabled again
    assert find(app.root, "create-game").disabled
    assert app.table is None


def test_wizard_tag_team_and_remembered_names(app: AppState) -> None:
    new_game(app, 4, ("Brujah", "Gangrel", "Nosferatu", "Tremere"))
    app.go("home")
    click(app.root, "new-game")
    assert has(app.root, "known-Ann")
    click(app.root, "known-Ann")
    assert find(app.root, "name-0").value == "Ann"
    for i, n in enumerate(["Bob", "Cat", "Dan"], start=1):
        type_in(app.root, f"name-{i}", n)
    click(app.root, "variant-tag")
    assert "Team 1: Ann & Cat (sitting opposite)" in texts(app.root)
    click(app.root, "create-game")
    assert [p.team for p in app.game.state.players] == ["Team 1", "Team 2", "Team 1", "Team 2"]


def test_clan_pick_in_turn_order_and_checklist(app: AppState) -> None:
    new_game(app, 4, ("Brujah", "Gangrel", "Nosferatu", "Tremere"))
    s = app.game.state
    assert [p.clan for p in s.players] == ["Brujah", "Gangrel", "Nosferatu", "Tremere"]
    assert s.phase == "feed"
    assert has(app.root, "checklist")  # §2 setup checklist before round 1
    assert value(app.root, "feed-0") == "Ann: +1 Blood (6 to 7)"


def test_feed_then_undo_and_redo(app: AppState) -> None:
    new_game(app, 4, ("Brujah", "Gangrel", "Nosferatu", "Tremere"))
    click(app.root, "feed")
    assert app.game.state.phase == "location_setup"
    click(app.root, "nav-table")
    assert value(app.root, "blood-0") == "7"
    click(app.root, "undo")
    assert value(app.root, "blood-0") == "6"
    click(app.root, "nav-table")  # back to the phase screen
    assert has(app.root, "feed")
    click(app.root, "redo")
    assert app.game.state.phase == "location_setup"


def test_unknown_ally_values_are_asked_and_remembered(app: AppState) -> None:
    """Location Setup with taps: one list open at a time; unknown values asked as chips;
    a new Ally's name typed once and remembered (§5)."""
    new_game(app, 4, ("Brujah", "Gangrel", "Nosferatu", "Tremere"))
    click(app.root, "feed")
    assert has(app.root, "ally-1-pick-AL14") and not has(app.root, "ally-2-pick-AL14")
    pick_ally(app, "1", "AL14")
    assert has(app.root, "ally-1-influence-2")  # values unknown → chips to tap
    assert not has(app.root, "ally-2-pick-new")  # the next list waits for these values
    assert find(app.root, "allies-ok").disabled  # not every Location has its Ally yet
    enter_ally(app, "1", values=(2, 1, 3, 0))
    assert has(app.root, "ally-2-pick-new")  # done: the next Location's list opened
    pick_ally(app, "2", "new")
    enter_ally(app, "2", values=(1, 1, 1, 1), name="Night Clerk")
    assert not has(app.root, "ally-haven-pick-AL14")  # one copy of each Ally (§1)
    pick_ally(app, "haven", "ALLY-WIN-TIES")
    assert has(app.root, "ally-haven-name")  # an unnamed card: its name may be added
    click(app.root, "ally-haven-human")
    place = find(app.root, "allies-ok")  # disabled, saying what is still to tap
    assert place.disabled
    assert place.content == "Haven: tap Influence while active and 3 more"
    enter_ally(app, "haven", values=(2, 2, 2, 2))
    assert find(app.root, "allies-ok").content == "Place these Allies"
    click(app.root, "allies-ok")
    assert app.error is None, app.error
    s = app.game.state
    assert s.phase == "hand_building"
    assert s.locations[1].ally and s.locations[1].ally.name == "Night Clerk"
    assert any(a.name == "Night Clerk" and a.complete() for a in app.catalogue.allies)


def _to_planning(app: AppState) -> None:
    """A 4-player game at Ann's first Planning turn, played through the views."""
    new_game(app, 4, ("Brujah", "Gangrel", "Nosferatu", "Tremere"))
    rng = random.Random(0)
    while app.game.state.phase != "planning":
        autoplay_step(app, rng)


def test_planning_offers_only_legal_blood_and_face_down_has_no_identity(app: AppState) -> None:
    _to_planning(app)
    r = app.root
    assert "Ann's turn 1 of 2" in value(r, "prompt")
    assert find(r, "play").disabled  # saying what is missing
    assert find(r, "play").content == "Choose where to play (Where?)"
    click(r, "loc-pick-1")
    assert find(r, "play").content == "Choose the card, or Face down"
    click(r, "face-down")
    assert "id" not in app.draft("plan")["card"]  # no identity asked for a face-down card
    assert label(r, "play") == "Play face down at #1"
    # Play, or Play with 1 to 3 Blood beside it: the Pool keeps 1 (7 - 1 for face down)
    assert has(r, "play-3") and not has(r, "play-4")
    said = find(r, "play-2").content
    assert said.value == "+2" and said.semantics_label == (
        "Play face down at Location #1 with 2 Blood")  # all it does, in words
    chips = {c.identifier: c for c in walk(r) if isinstance(c, ft.Semantics)}
    assert chips["face-down"].selected is True and not chips["loc-pick-2"].selected  # told
    assert find(r, "face-down").icon == ft.Icons.CHECK  # not by colour alone
    click(r, "play-2")
    s = app.game.state
    card = s.locations[0].positions[0].cards[0]
    assert not card.face_up and card.card is None
    assert s.players[0].blood == 7 - 1 - 2


def test_unknown_power_is_asked(app: AppState) -> None:
    _to_planning(app)
    r = app.root
    click(r, "loc-pick-haven")
    click(r, "plan-card-BR-HUNT")
    assert find(r, "play").disabled
    assert find(r, "play").content == "Tap the card's printed Power"
    click(r, "plan-card-power-2")
    click(r, "play")
    assert app.error is None
    assert app.game.state.locations[-1].positions[0].cards[0].card.power == 2
    assert next(c for c in app.catalogue.clan_cards if c.id == "BR-HUNT").power == 2


def test_refusal_is_shown_inline_and_changes_nothing(app: AppState) -> None:
    _to_planning(app)
    r = app.root
    click(r, "nav-table")
    click(r, "effect-open")
    click(r, "effect-action-spend_blood")
    click(r, "effect-player-0")
    type_in(r, "effect-amount", "30")
    before = len(app.game.actions)
    click(r, "effect-apply")
    assert has(r, "error") and "last Blood" in app.error
    assert len(app.game.actions) == before


def test_drain_button(app: AppState) -> None:
    _to_planning(app)
    uid = app.legal().drainable[0]
    click(app.root, f"drain-{uid}")
    assert app.game.state.players[0].blood == 7 + 3  # Victim: Drain → +3 Blood (§1)
    assert app.game.state.players[0].alliance[0].drained


def test_full_game_to_scoreboard_through_views(tmp_path) -> None:
    store = TinyDBGameStore(tmp_path)
    app = build(GameSession(store))
    new_game(app, 5)
    rng = random.Random(3)
    for _ in range(600):
        if app.game.state.phase == "game_over":
            break
        autoplay_step(app, rng)
        assert app.error is None, app.error
    board = app.game.scoreboard
    assert board is not None
    shown = texts(app.root)
    assert f"{board.winner} wins!" in shown
    for row in board.rows:
        assert value(app.root, f"score-{row.rank}") == str(row.influence.total)


def test_stored_game_replays_after_face_down_play(tmp_path) -> None:
    """Every action is stored before it returns; a face-down card must replay too (§7)."""
    store = TinyDBGameStore(tmp_path)
    app = build(GameSession(store))
    _to_planning(app)
    click(app.root, "loc-pick-1")
    click(app.root, "face-down")
    click(app.root, "play")
    stored = store.load(app.game.header.game_id)
    replay = Game.from_journal(stored.header, stored.entries, verify=True)
    assert replay.state == app.game.state


def test_resume_from_home(tmp_path) -> None:
    app = build(GameSession(TinyDBGameStore(tmp_path / "a")))
    new_game(app, 3, ("Brujah", "Gangrel", "Nosferatu"))
    click(app.root, "feed")
    game_id = app.game.header.game_id
    app.library.store.close()  # the app is gone; a new one opens the same folder
    app2 = build(GameSession(TinyDBGameStore(tmp_path / "a")))
    click(app2.root, "game-0")
    assert app2.game.header.game_id == game_id
    assert app2.game.state.phase == "location_setup"


def test_quick_score(app: AppState) -> None:
    r = app.root
    click(r, "quick-score")
    click(r, "qs-count-3")
    values = [(8, 10, 1, 3, 0, 2), (2, 12, 0, 3, 0, 0), (5, 12, 0, 3, 0, 0)]
    for i, row in enumerate(values):
        type_in(r, f"qs-{i}-name", NAMES[i])
        for key, v in zip(("blood", "tokens", "diablerie", "active", "drained", "relic"), row,
                          strict=True):
            type_in(r, f"qs-{i}-{key}", str(v))
    click(r, "qs-score")
    assert app.error is None, app.error
    # Ann 3+10+2-1 = 14; Bob 15 (2 Blood); Cat 15 (5 Blood) → Cat first on Blood (§12)
    assert value(r, "winner") == "Cat wins!"
    assert [value(r, f"score-{k}") for k in (1, 2, 3)] == ["15", "15", "14"]
    assert "more Blood" in " ".join(texts(r))


def test_every_screen_renders(app: AppState) -> None:
    for screen in ("rules", "catalogue", "quick", "new", "home"):
        app.go(screen)
        assert app.root.controls


def test_due_effect_offers_the_tag_team_teammate_choice() -> None:
    """§13 via the views: 'each Rival' effects ask whether the teammate is hit too."""
    from models.setup import Position

    br07 = {"power": 3, "kind": "preparation", "id": "BR07", "name": "Show of Force",
            "effect": "BR07"}
    victim = {"name": "Victim", "kind": "victim", "influence": 1, "feed": 1, "drain_blood": 3,
              "drained_influence": 0}
    players = [{"name": n, "clan": c, "team": t, "blood": 6, "influence": 3,
                "alliance": [{"card": victim}]}
               for n, c, t in (("Ann", "Brujah", "X"), ("Bob", "Gangrel", "Y"),
                               ("Cat", "Ventrue", "X"), ("Dan", "Tremere", "Y"))]
    allies = {"name": "Ally", "kind": "human", "influence": 1, "feed": 1, "drain_blood": 2,
              "drained_influence": 0}
    pos = Position.model_validate({
        "players": players, "variants": {"tag_team": True}, "round": 1, "phase": "resolution",
        "ambition": "Ann",
        "locations": [{"id": "1", "ally": allies, "deployed": [
            {"player": "Ann", "cards": [{"card": br07}]},
            {"player": "Bob", "cards": [{"card": {"power": 2}}]},
            {"player": "Cat", "cards": [{"card": {"power": 2}}]}]},
            {"id": "2", "ally": {**allies, "name": "Ally 2"}},
            {"id": "haven", "ally": {**allies, "name": "Ally 3"}}]})
    svc = GameSession(MemoryGameStore())
    svc.new_game(pos)
    app = build(svc)
    app.go("game")
    app.render()
    click(app.root, "withdraw-ok")
    assert has(app.root, "due-0-apply-all")
    click(app.root, "due-0-apply-all")
    assert [p.blood for p in app.game.state.players] == [8, 5, 5, 6]


def test_peek_button_spends_one_blood_and_records_no_identity() -> None:
    """§15 look-at-face-down Ally via the table screen."""
    from models.setup import Position

    victim = {"name": "Victim", "kind": "victim", "influence": 1, "feed": 1, "drain_blood": 3,
              "drained_influence": 0}
    peeker = {"name": "Informant", "kind": "human", "influence": 1, "feed": 1, "drain_blood": 2,
              "drained_influence": 0, "ability": "peek_face_down"}
    players = [{"name": n, "clan": c, "blood": 6, "influence": 3,
                "alliance": [{"card": victim}] + ([{"card": peeker}] if n == "Ann" else [])}
               for n, c in (("Ann", "Brujah"), ("Bob", "Gangrel"), ("Cat", "Ventrue"))]
    ally = {"name": "Ally", "kind": "human", "influence": 1, "feed": 1, "drain_blood": 2,
            "drained_influence": 0}
    pos = Position.model_validate({
        "players": players, "round": 1, "phase": "planning", "ambition": "Ann",
        "locations": [{"id": "1", "ally": ally,
                       "deployed": [{"player": "Bob", "cards": [{"face_up": False}]}]},
                      {"id": "2", "ally": {**ally, "name": "Ally 2"}},
                      {"id": "haven", "ally": {**ally, "name": "Ally 3"}}]})
    svc = GameSession(MemoryGameStore())
    svc.new_game(pos)
    app = build(svc)
    game = app.game
    app.go("table")
    app.render()
    uid = game.state.locations[0].positions[1].cards[0].uid
    click(app.root, f"peek-0-{uid}")
    assert game.state.players[0].blood == 5
    assert game.state.locations[0].positions[1].cards[0].card is None


# --- pickers offer only possible cards; Relics only when allowed; the partner ------

def _position_app(players: list[dict], deployed: dict | None = None, screen: str = "game",
                  **extra: object) -> AppState:
    """The app on a game entered at round 1 Planning (Ann first)."""
    from models.setup import Position

    victim = {"name": "Victim", "kind": "victim", "influence": 1, "feed": 1, "drain_blood": 3,
              "drained_influence": 0}
    full = [{"clan": c, "blood": 6, "influence": 3, "alliance": [{"card": victim}], **p}
            for p, c in zip(players, ("Brujah", "Gangrel", "Ventrue", "Tremere"), strict=False)]
    locations = [{"id": i, "ally": {"name": f"Ally {i}", "kind": "human", "influence": 1,
                                    "feed": 1, "drain_blood": 2, "drained_influence": 0},
                  "deployed": (deployed or {}).get(i, [])} for i in ("1", "2", "haven")]
    svc = GameSession(MemoryGameStore())
    svc.new_game(Position.model_validate({"players": full, "round": 1, "phase": "planning",
                                          "ambition": "Ann", "locations": locations, **extra}))
    app = build(svc)
    app.go(screen)
    return app


BR01 = {"power": 6, "kind": "conflict", "id": "BR01", "name": "Bloody Fury", "clan": "Brujah",
        "effect": "BR01"}
BR03 = {"power": 4, "kind": "passive", "id": "BR03", "name": "Challenge", "clan": "Brujah",
        "effect": "BR03"}


def test_planning_picker_offers_only_cards_not_already_on_the_table() -> None:
    """§1/§2: Ann's Bloody Fury is face up at #1, so the picker does not offer it again."""
    app = _position_app([{"name": n} for n in ("Ann", "Bob", "Cat")],
                        {"1": [{"player": "Ann", "cards": [{"card": BR01}]}]})
    click(app.root, "loc-pick-2")
    assert not has(app.root, "plan-card-BR01") and has(app.root, "plan-card-BR07")


def test_reveal_picker_does_not_offer_one_card_twice() -> None:
    """§1/§2: two face-down cards of Ann: the card picked for the first is not offered for the
    second."""
    app = _position_app([{"name": n} for n in ("Ann", "Bob", "Cat")],
                        {"1": [{"player": "Ann", "cards": [{"face_up": False},
                                                           {"face_up": False}]},
                               {"player": "Bob", "cards": [{"card": {"power": 2}}]}]},
                        phase="resolution", resolution_location="1")
    click(app.root, "withdraw-ok")
    first, second = app.legal().face_down[0]
    click(app.root, f"rev-{first}-BR07")
    assert not has(app.root, f"rev-{second}-BR07") and has(app.root, f"rev-{second}-BR04")


def test_use_the_relic_only_when_its_text_allows() -> None:
    """§13/§15: at Ann's Planning turn her restoring Relic offers her drained Victim; Cat's
    unknown Relic may be flipped; Bob's Blood Relic waits for Resolution."""
    victim = {"name": "Victim", "kind": "victim", "influence": 1, "feed": 1, "drain_blood": 3,
              "drained_influence": 0}
    players = [{"name": "Ann", "relic": {"name": "Reviver", "influence": 0,
                                         "ability": "restore_drained"},
                "alliance": [{"card": victim, "drained": True}]},
               {"name": "Bob", "relic": {"name": "Blood Urn", "influence": 2,
                                         "ability": "blood_each_location"}},
               {"name": "Cat", "relic": {"name": "Old Coin", "influence": 1}}]
    app = _position_app(players, screen="table", variants={"relics": True})
    uid = app.game.state.players[0].alliance[0].uid
    assert has(app.root, f"relic-use-0-{uid}") and has(app.root, "relic-use-2")
    assert not has(app.root, "relic-use-1") and not has(app.root, "relic-use-0")
    click(app.root, f"relic-use-0-{uid}")
    assert app.question is not None and app.game.state.players[0].alliance[0].drained
    app.answer(True)  # a Relic is used once a game: confirmed first
    assert not app.game.state.players[0].alliance[0].drained
    assert not has(app.root, f"relic-use-0-{uid}")


def test_partner_chooses_whether_challenge_reaches_them() -> None:
    """§13: Cat (team X with Ann) has Challenge face up at #1; Ann's play at #2 asks whether it
    reaches her; 'yes' costs Ann 1 Blood."""
    players = [{"name": n, "team": t} for n, t in zip(("Ann", "Bob", "Cat", "Dan"), "XYXY",
                                                       strict=True)]
    app = _position_app(players, {"1": [{"player": "Cat", "cards": [{"card": BR03}]}]},
                        variants={"tag_team": True})
    click(app.root, "loc-pick-2")
    click(app.root, "plan-card-BR07")
    click(app.root, "partner-include")
    click(app.root, "play")
    assert app.error is None, app.error
    assert app.game.state.players[0].blood == 5


def test_location_setup_shows_a_cut_name_to_complete() -> None:
    """§15: the Gain-3 Ally's name is cut in the sources: the form starts from what is known
    and says to complete it; its kind (Vampire) is known."""
    app = _position_app([{"name": n} for n in ("Ann", "Bob", "Cat")], phase="feed",
                        locations=[])
    click(app.root, "feed")
    pick_ally(app, "1", "ALLY-ACQUIRE-3")
    assert find(app.root, "ally-1-name").value == "…Wainwright, Anarch Intelligence Exchange"
    assert any("complete it" in x for x in texts(app.root))
    assert app.draft("allies")["1"]["kind"] == "vampire"
