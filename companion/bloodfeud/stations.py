"""The four Blood Feud stations as reference cards, in the project's own words (seed 004, the four
station aids), and every lookup the aids key by a team's Power.

The sections §B1–§B10 below are the whole reference: docs/bloodfeud.md is `markdown()` written
out, and every refusal of the package cites one of them. Names, numbers and game terms are the
aids' own; the sentences are ours. A Ruling says how the companion reads a point the aids leave
open.
"""

from collections.abc import Sequence
from typing import TypeVar

from pydantic import ConfigDict, Field, StrictInt

from companion.bloodfeud.errors import BloodFeudError
from companion.bloodfeud.models import Name, Record

# --- facts the aids state ----------------------------------------------------------------------

POWERS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
"""Every Power the aids give meaning to: their bonus tables cover 1, 2–3 and 4–6 (§B2)."""
TEAM_UNIT_LIMIT = 3
"""Most Units of one team's colour on a Domain tile (§B3), and the starting Team Unit Limit of
Recruit (§B5)."""
BARRICADES_PER_EDGE = 1
"""Most Barricades, of any colours, on an edge between two Domain tiles (§B3)."""
SUN_TRACK_BLOCK_COST = (1, 3)
"""Least and most Ambition tokens a Sun Track space costs to block; each space shows its own
cost, which the aids do not list (§B3)."""
AMBITION_TOKEN_PRICE = 6
"""Assets paid at the Marketplace for 1 Ambition token (§B6)."""
BURY_PRICE = 1
"""Assets paid at the Marketplace to Bury one Market card (§B6)."""
AMBITION_CARD_PRICE = 1
"""Ambition tokens paid at the Council for one Ambition card (§B8)."""
PROPOSER_AMBITION_TOKENS = 1
"""Ambition tokens the proposer of a passed Event gains (§B9)."""

# --- the reference -----------------------------------------------------------------------------


class Text(Record):
    """Reference text: longer paragraphs than entered data may hold."""

    model_config = ConfigDict(str_max_length=2000)


class Entry(Text):
    """One action or note of a section."""

    title: str
    """The action's name as the aid gives it, or the note's subject."""
    text: str
    """What it does, in the project's words."""
    limit: str | None = None
    """How often it may be taken, when the aid limits it, e.g. "once a round"."""


class Ruling(Text):
    """How the companion reads a point the aids leave open."""

    title: str
    """The point in a few words."""
    text: str
    """The reading, with the case it settles."""


class Section(Text):
    """A numbered section of the reference, cited as e.g. §B9."""

    number: str
    """"§B1" to "§B10"."""
    title: str
    """The section's heading."""
    source: str
    """Where its facts come from: seed 004 and which station aid."""
    intro: tuple[str, ...] = ()
    """Paragraphs before the entries."""
    entries: tuple[Entry, ...] = ()
    """The actions and notes, in the aid's order."""
    rulings: tuple[Ruling, ...] = ()
    """The companion's readings of unclear points."""


class StationCard(Text):
    """A station as a reference card: what it is for and the sections that tell its actions."""

    number: int
    """1 to 4, as the aids number the stations."""
    name: str
    """Cityscape, Orders, Marketplace or Council."""
    purpose: str
    """What happens there and what its player looks after."""
    sections: tuple[str, ...]
    """The sections (§B…) that hold its actions, bonus actions included."""


class MarketplaceBonus(Record):
    """The Marketplace bonus actions of a band of Power (§B7)."""

    powers: tuple[int, int]
    """Least and most Power of the band, e.g. (2, 3)."""
    free_buries: int
    """Most Market cards the team may Bury without paying, once a round."""
    cost_discount: int
    """By how much the Cost of one item bought or stored counts less, once a round (0: none)."""
    actions: tuple[str, ...]
    """The bonus actions, in the project's words."""


class CouncilBonus(Record):
    """The Council bonus actions of a band of Power (§B10)."""

    powers: tuple[int, int]
    """Least and most Power of the band, e.g. (4, 6)."""
    event_swaps: int
    """Most Event cards the team may discard, drawing as many again, once a round."""
    bury_ambition_card: bool
    """Whether the team may Bury one face-up Ambition card, once a round."""
    actions: tuple[str, ...]
    """The bonus actions, in the project's words."""


MARKETPLACE_BONUSES: tuple[MarketplaceBonus, ...] = (
    MarketplaceBonus(powers=(4, 6), free_buries=1, cost_discount=0, actions=(
        "Bury 1 Market card without paying for it.",)),
    MarketplaceBonus(powers=(2, 3), free_buries=2, cost_discount=0, actions=(
        "Bury as many as 2 Market cards without paying for them.",)),
    MarketplaceBonus(powers=(1, 1), free_buries=3, cost_discount=1, actions=(
        "Bury as many as 3 Market cards without paying for them.",
        "Count the Cost of one item the team buys or stores as 1 lower.")),
)
"""Marketplace bonus actions by band of Power, each usable once a round (§B7)."""

COUNCIL_BONUSES: tuple[CouncilBonus, ...] = (
    CouncilBonus(powers=(4, 6), event_swaps=1, bury_ambition_card=False, actions=(
        "Discard 1 Event card, then draw 1 Event card.",)),
    CouncilBonus(powers=(2, 3), event_swaps=2, bury_ambition_card=False, actions=(
        "Discard as many as 2 Event cards, then draw that many Event cards.",)),
    CouncilBonus(powers=(1, 1), event_swaps=3, bury_ambition_card=True, actions=(
        "Discard as many as 3 Event cards, then draw that many Event cards.",
        "Bury 1 face-up Ambition card and turn up the next card of the Ambition deck in its "
        "place.")),
)
"""Council bonus actions by band of Power, each usable once a round (§B10)."""


def _band_entries(bands: Sequence[MarketplaceBonus | CouncilBonus]) -> tuple[Entry, ...]:
    """One entry per band of Power, its actions as one paragraph."""
    def name(lo: int, hi: int) -> str:
        return f"Power {lo}" if lo == hi else f"Power {lo}–{hi}"

    return tuple(Entry(title=name(*b.powers), text=" ".join(b.actions), limit="once a round")
                 for b in bands)


AID = "seed 004, station aid"

SECTIONS: tuple[Section, ...] = (
    Section(
        number="§B1", title="What the station aids cover",
        source=f"{AID}s 1–4 (Cityscape, Orders, Marketplace, Council)",
        intro=(
            "Blood Feud is a team game. Each team plays Vampires or Humans, and its players "
            "share out four stations: the Cityscape, the Orders board, the Marketplace and the "
            "Council. A Storyteller resolves the Events the Council sends. Each station has a "
            "one-page aid; those four pages are everything the project knows of the game.",
            "The companion takes over the paperwork: who played on which team, how many rounds "
            "went by, each round's Council vote and the result the Storyteller announces. It "
            "also answers the questions the aids settle by a team's Power (§B2).",
            "The aids hold no card lists, no map of the Domains, no way to work out Power, no "
            "length of the Sun Track and no scoring. The companion invents none of these: where "
            "one is needed, the players enter it.",
        ),
    ),
    Section(
        number="§B2", title="Teams, Power and the session record",
        source=f"{AID}s 1–4 (Power: aids 1–4; colours and sides: aid 2; the Storyteller: aid 4)",
        intro=(
            "A team has a colour, and the Alliance board has a space for every pair of colours. "
            "A team is either Vampire or Human; a few Orders work for one side only (§B5).",
            "A team's Power decides a great deal: the fingers its Council player raises in a "
            "vote (§B9), the highest Cost it may Store for free (§B6), where its Orders fall in "
            "the resolution order (§B5), who may stop its Alliances (§B4) and which bonus "
            "actions it has (§B7, §B10). Power is settled at the Cityscape, but the aids do not "
            "say how, so the companion takes every team's current Power as an entry.",
            "Nothing in the aids scores the game. The record keeps the result as the Storyteller "
            "announces it: the team on top, or every team that shares the top.",
        ),
        rulings=(
            Ruling(title="Power runs from 1 to 6", text=(
                "The bonus tables stop at 1 and at 6, and nothing in the aids gives any other "
                "Power a meaning, so a Power below 1 or above 6 is refused.")),
            Ruling(title="A tie stays a tie", text=(
                "When the Storyteller names more than one team on top, the record shows a tie. "
                "If the Storyteller then chooses among them, the choice is kept next to the tie "
                "as the Storyteller's pick and never replaces it; the pick must be one of the "
                "tied teams, and a result with a single team on top has no pick.")),
            Ruling(title="Checks of the record", text=(
                "A session has at least two teams, each with at least one player. Team names "
                "differ, colours differ (they name the Alliance spaces), and nobody plays on two "
                "teams. These keep the record readable; they are not rules of the game.")),
        ),
    ),
    Section(
        number="§B3", title="Station 1: Cityscape", source=f"{AID} 1 (Cityscape)",
        intro=(
            "The Cityscape is the map: Units move between Domains here, Orders look here for "
            "the Units they need, and Power is settled here. Its player keeps the team's Player "
            "Units safe, takes Domain tiles and plays in step with the team's Orders player.",
        ),
        entries=(
            Entry(title="Move Unit", text=(
                "One Unit of your colour that is not Fatigued goes to a neighbouring Domain. "
                "It cannot cross a Barricade, even one of your own colour, nor end up as a "
                "fourth Unit of your colour on a Domain. Afterwards it is Fatigued.")),
            Entry(title="Place Barricade", text=(
                "A Unit of your colour that is not Fatigued puts a Barricade of your colour on "
                "an edge of its Domain that has no Barricade yet. Two neighbouring Domains share "
                "one edge. Afterwards the Unit is Fatigued.")),
            Entry(title="Remove Barricade", text=(
                "A Unit of your colour that is not Fatigued takes a Barricade of any colour off "
                "an edge of its Domain. Afterwards the Unit is Fatigued.")),
            Entry(title="Reduce Sun Track", text=(
                "Block the open Sun Track space nearest Daybreak by paying its cost, from 1 to 3 "
                "Ambition tokens, all at once; the tokens stay on the space to mark it. Every "
                "blocked space takes a round off the game: worth it for a team that has "
                "fulfilled 3 Ambition cards and expects to end ahead.")),
            Entry(title="Fatigued Units", text=(
                "A Fatigued Unit piece lies X side up; a Fatigued miniature lies on its side. "
                "It can take no action, yet it still counts when Orders resolve. Every Unit "
                "recovers once the Resolution Phase reaches its Cleanup step.")),
            Entry(title="Team Unit Limit", text=(
                f"Never more than {TEAM_UNIT_LIMIT} Units of one team's colour on a Domain "
                "tile, by moving or by placing; setup and some effects are exempt. Any number of "
                "teams may share a Domain.")),
            Entry(title="Barricades per edge", text=(
                f"An edge between two Domain tiles carries at most {BARRICADES_PER_EDGE} "
                "Barricade in all, whatever its colour.")),
            Entry(title="Player Units", text=(
                "Any Player Unit of your team is yours to use, not only your own.")),
        ),
    ),
    Section(
        number="§B4", title="Station 2: Orders — Alliances", source=f"{AID} 2 (Orders)",
        intro=(
            "At the Orders board a team plays Orders onto the Cityscape, brings Units in, "
            "earns Assets and makes or stops Alliances, in step with its Cityscape player.",
        ),
        entries=(
            Entry(title="Being allied", text=(
                "Two teams are allies while each has an Asset lying X side down on the Alliance "
                "space that shows both their colours. Allies count each other's Units and Defend "
                "cards on a Domain in their Combat Strength, and an Attack can neither target an "
                "ally nor harm one. A team may have several allies at once. All Alliances and "
                "all blocks end when the Resolution Phase reaches its Cleanup step and the "
                "Alliance board is cleared; later rounds may make them again.")),
            Entry(title="Quorum", text=(
                "Both Alliance actions need players from half the teams or more, rounding up, "
                "at the Orders station: 2 of 3 or 4 teams, 3 of 5 or 6.")),
            Entry(title="Propose an Alliance", text=(
                "Say which team you want to ally with. Both teams must be at the station, both "
                "must agree and each must hold at least 1 Asset. Any player at the station whose "
                "team's Power is no higher than the two teams' (see the ruling) may stop it with "
                "1 Asset laid X side up on the space of the two colours. If nobody stops it, each "
                "team lays 1 Asset there X side down, and they are allies until the round ends.")),
            Entry(title="Block an Alliance", text=(
                "Name two teams aloud; you need an Asset to spend, and an Alliance already made "
                "this round cannot be blocked. If at least one of the two has the same Power as "
                "your team or less, they may answer by allying on the spot, each laying 1 Asset "
                "X side down on their space. If they do not, lay 1 Asset X side up there: for the "
                "rest of the round nobody may propose that Alliance.")),
        ),
        rulings=(
            Ruling(title="Who may stop a proposed Alliance", text=(
                "The aid lets players stop it when their Power is equal to or below 'either' "
                "team. The companion reads 'either' as each of the two: a blocker's Power must "
                "not exceed the lower of the two teams' Powers. A Power 2 team may stop an "
                "Alliance of Powers 2 and 4, but not one of Powers 3 and 1.")),
            Ruling(title="Who may answer a block", text=(
                "Here 'either of the two teams' is read as at least one of them: the pair may "
                "ally in answer when the lower of their two Powers is at most the blocker's "
                "Power.")),
        ),
    ),
    Section(
        number="§B5", title="Station 2: Orders — playing and resolving Orders",
        source=f"{AID} 2 (Orders)",
        entries=(
            Entry(title="Place Order and Seal cards", text=(
                "Lay one of your team's Order cards on a Domain space of the Orders board and "
                "one of your team's Seal cards over it. It waits for the end of the round.")),
            Entry(title="Resolution order", text=(
                "On each Domain space the Orders resolve by Power, lowest first and highest "
                "last; teams of equal Power go in the order their Orders "
                "were played. Of a team's Orders on one space only the first one placed "
                "resolves.")),
            Entry(title="A Unit must be there", text=(
                "An Order has an effect only if a Unit of its team's colour stands on the "
                "matching Domain tile of the Cityscape when it resolves; Fatigued or not does "
                "not matter.")),
            Entry(title="Attack", text=(
                "Choose an enemy Unit on the Domain. Your Combat Strength is your Units there, "
                "plus your allies' Units, plus the Domain tile's modifiers; the Attack succeeds "
                "only if it is strictly higher than the target's. A Basic Unit hit is slain. A "
                "Player Unit hit makes its player Bury the Equipped Advancement card at the "
                "front of their ID Lanyard, and is slain if no such card is left. A slain Unit "
                "goes to the lowest open space of the attacker's Graveyard, and an Ambition "
                "token lying there joins the attacker's Team Resources; if the Graveyard is "
                "full, the Unit goes to the Supply instead.")),
            Entry(title="Defend", text=(
                "For the rest of the round, Attacks on your team or its allies on this Domain "
                "face a raised Combat Strength; the text of the aid does not keep by how much. "
                "Only Attacks resolved after the Defend feel it: those of teams with more Power, "
                "or with equal Power that were played after it.")),
            Entry(title="Embrace (Vampire teams only)", text=(
                "If you are under your Unit Limit, one Human Basic Unit on the Domain is "
                "swapped for one of your Vampire Basic Units taken from the Supply.")),
            Entry(title="Feed (Vampire teams only)", text=(
                "Gain 2 Assets when the Domain holds a Human Unit, 1 Asset when it holds "
                "none.")),
            Entry(title="Recruit (Human teams only)", text=(
                "With no Vampire Unit on the Domain, add Basic Units there until the team has as "
                f"many as its Team Unit Limit ({TEAM_UNIT_LIMIT} at the start); with a Vampire "
                "Unit there, add a single Basic Unit, and only while under that limit.")),
            Entry(title="Requisition (Human teams only)", text=(
                "Gain 2 Assets when the Domain holds no Vampire Unit, 1 Asset when it holds "
                "one.")),
        ),
        rulings=(
            Ruling(title="'Your first Order' is your team's", text=(
                "Orders are team cards, so the companion reads the aid's 'you' as the team: of "
                "all the Orders one team placed on a Domain space, only the first resolves.")),
        ),
    ),
    Section(
        number="§B6", title="Station 3: Marketplace", source=f"{AID} 3 (Marketplace)",
        intro=(
            "Order cards, Advancement cards and Ambition tokens are bought, stored and traded "
            "at the Marketplace; its player gets the team what its plans need.",
        ),
        entries=(
            Entry(title="Purchase Market item", text=(
                "Pay a face-up Market card's Cost in Assets and take it, or pay "
                f"{AMBITION_TOKEN_PRICE} Assets and take 1 Ambition token off the Ambition Tokens "
                "board. Spent Assets go on the Spent Assets board.")),
            Entry(title="Bury Market card", text=(
                f"For {BURY_PRICE} Asset, move any one card of the Market to the bottom of "
                "its own pile.")),
            Entry(title="Store Market item", limit="once a round", text=(
                "Move a Market item whose Cost is at most your team's Power into your Team "
                "Warehouse, paying nothing. The Warehouse has no size limit and shows everything "
                "face up. Storing each round pays: the item can be bought later, kept from "
                "rivals or traded.")),
            Entry(title="Purchase from your Team Warehouse", text=(
                "Take an item out of your Warehouse by paying its Cost in Assets.")),
            Entry(title="Trade from your Team Warehouse", text=(
                "Give an item of your Warehouse to another team for whatever they will agree "
                "to: Assets, cards, favours or nothing at all. Each side puts what it gets "
                "straight into its Team Resources.")),
        ),
        rulings=(
            Ruling(title="The Store cap at Power 1", text=(
                "The Power 1 bonus (§B7) counts an item's Cost as 1 lower when storing too, so "
                "the store it is used on may take an item of Cost 2. Otherwise the cap is the "
                "team's Power.")),
            Ruling(title="A Cost of 0 with the discount", text=(
                "The aid does not say what a Cost of 0 becomes when counted 1 lower, so the "
                "companion does not work out that price.")),
        ),
    ),
    Section(
        number="§B7", title="Marketplace bonus actions by Power", source=f"{AID} 3 (Marketplace)",
        intro=(
            "On top of the actions of §B6, the Marketplace player may take a bonus action each "
            "round; which one depends on the team's Power at the time.",
        ),
        entries=_band_entries(MARKETPLACE_BONUSES),
        rulings=(
            Ruling(title="Two bonus actions at Power 1", text=(
                "At Power 1 the aid lists two bonus actions, each limited to once a round; the "
                "companion lists both as available.")),
        ),
    ),
    Section(
        number="§B8", title="Station 4: Council", source=f"{AID} 4 (Council)",
        intro=(
            "The Council votes on Events. Its player steers the vote towards Events that help "
            "the team, tells the team what a coming Event will do and buys new Ambitions.",
        ),
        entries=(
            Entry(title="Propose Event", limit="once a round by each team", text=(
                "Lay an Event card from your Team Resources face up beside the Council board, "
                "then draw a new Event card into your Team Resources.")),
            Entry(title="Resolve Council vote", limit="one a round, shared by all teams", text=(
                "See §B9.")),
            Entry(title="Purchase Ambition", text=(
                f"Spend {AMBITION_CARD_PRICE} Ambition token, which goes on the Ambition Tokens "
                "space, then choose: take a face-up Ambition card into your Team Resources and "
                "turn up the next card of the Ambition deck in its place; draw the top card of "
                "that deck, keeping it hidden from the other teams; or, in Immersive Story "
                "Mode, take one of the Ambition cards set aside for your faction.")),
        ),
    ),
    Section(
        number="§B9", title="The Council vote", source=f"{AID} 4 (Council)",
        intro=(
            "A Council player may ask for the proposed Events to be voted on. It goes ahead "
            "only if players from half the teams or more, rounding up, are at the Council "
            "station and willing to vote; if not, it can be called again later. A round has "
            "one Council vote, shared by all teams.",
            "First the caller announces the vote loudly enough for the whole Neutral Zone; a "
            "team that still wants to propose an Event must do it now; the voters get time to "
            "read every proposal. Then, on three, every voter at once points at a proposed "
            "Event, or at the ceiling for No Event, with as many fingers as the team's current "
            "Power.",
            "Each option's Voting Power is the sum of the fingers pointing at it.",
        ),
        entries=(
            Entry(title="No majority", text=(
                "The voters vote again straight away, between the tied leaders only.")),
            Entry(title="An Event has the majority", text=(
                f"The team that proposed it receives {PROPOSER_AMBITION_TOKENS} Ambition token off "
                "the Ambition board, and the card goes to the Storyteller, who resolves it "
                "during the Resolution Phase.")),
            Entry(title="No Event has the majority, or none is chosen", text=(
                "When No Event wins, or the Gameplay Phase ends with no Event chosen, an Event "
                "is taken at random off the top of the Event deck, unseen by all, and given to "
                "the Storyteller for the Resolution Phase.")),
            Entry(title="Afterwards", text=(
                "Every proposed Event that was not chosen goes to the Event discard pile.")),
        ),
        rulings=(
            Ruling(title="Majority means the most Voting Power", text=(
                "The aid does not define 'majority'. The companion reads it as one option "
                "holding more Voting Power than each other option, not as more than half of all "
                "the Power raised: with Powers 3, 2, 2 and 1, an Event backed by both Power 2 "
                "teams passes with 4 of 8.")),
            Ruling(title="What a re-vote is between", text=(
                "Only the options tied for the most Voting Power are voted on again. When they "
                "are all Events, No Event is not a choice: a 3–3 tie between E1 and E2 is "
                "voted again between E1 and E2 alone. When No Event is one of the tied options "
                "it stays a choice, as the alternative to the tied Event. A re-vote that ties "
                "again is held again the same way, until the Gameplay Phase ends.")),
            Ruling(title="One hand per team", text=(
                "Each team votes once with its Power, however many of its players stand at the "
                "Council. A re-vote is held at once by the same teams with the same Power, each "
                "choosing one of the tied options.")),
            Ruling(title="A vote without its quorum", text=(
                "It is refused and may be called again later; it does not use up the round's "
                "one vote.")),
            Ruling(title="The proposer's token", text=(
                "The aid gives the token to the proposing player; as Ambition "
                "tokens are team resources, the record credits that player's team.")),
        ),
    ),
    Section(
        number="§B10", title="Council bonus actions by Power", source=f"{AID} 4 (Council)",
        intro=(
            "On top of the actions of §B8, the Council player may take a bonus action each "
            "round; which one depends on the team's Power at the time.",
        ),
        entries=_band_entries(COUNCIL_BONUSES),
        rulings=(
            Ruling(title="Two bonus actions at Power 1", text=(
                "As at the Marketplace (§B7), both Power 1 bonus actions are listed as "
                "available, each once a round.")),
        ),
    ),
)
"""The whole Blood Feud reference, in order."""

STATIONS: tuple[StationCard, ...] = (
    StationCard(number=1, name="Cityscape", purpose=SECTIONS[2].intro[0], sections=("§B3",)),
    StationCard(number=2, name="Orders", purpose=SECTIONS[3].intro[0],
                sections=("§B4", "§B5")),
    StationCard(number=3, name="Marketplace", purpose=SECTIONS[5].intro[0],
                sections=("§B6", "§B7")),
    StationCard(number=4, name="Council", purpose=SECTIONS[7].intro[0],
                sections=("§B8", "§B9", "§B10")),
)
"""The four stations as reference cards."""


def section(number: str) -> Section:
    """The section numbered `number`, e.g. "§B9".

    Raises:
        KeyError: no such section.
    """
    for s in SECTIONS:
        if s.number == number:
            return s
    raise KeyError(number)


def station(number: int) -> StationCard:
    """Station `number` (1 Cityscape, 2 Orders, 3 Marketplace, 4 Council).

    Raises:
        KeyError: no such station.
    """
    for s in STATIONS:
        if s.number == number:
            return s
    raise KeyError(number)


def markdown() -> str:
    """The reference as docs/bloodfeud.md holds it."""
    out = [
        "# Blood Feud, as the companion keeps it",
        "",
        "Vampire: The Masquerade – Blood Feud, told in this project's own words from the only "
        "source the project has for it: seed 004, the four station aids. Code, refusals and "
        "tests cite these sections by number (§B9). A Ruling says how the companion reads a "
        "point the aids leave open. The aids give no scoring, so neither does the companion.",
        "",
        "This file is generated from `companion/bloodfeud/stations.py`. Edit the sections "
        "there, then run `python -c \"from companion.bloodfeud.stations import markdown; "
        "print(markdown(), end='')\" > docs/bloodfeud.md`.",
        "",
        "| station | sections |",
        "| --- | --- |",
        *(f"| {c.number}: {c.name} | {', '.join(c.sections)} |" for c in STATIONS),
    ]
    for s in SECTIONS:
        out += ["", f"## {s.number} {s.title}", "", f"*Source: {s.source}.*"]
        for paragraph in s.intro:
            out += ["", paragraph]
        for e in s.entries:
            limit = f" ({e.limit})" if e.limit else ""
            out += ["", f"### {e.title}{limit}", "", e.text]
        for r in s.rulings:
            out += ["", f"### Ruling: {r.title}", "", r.text]
    return "\n".join(out) + "\n"


# --- lookups keyed by Power --------------------------------------------------------------------


def check_power(power: int, team: str | None = None) -> int:
    """`power` if the aids give it a meaning (1–6), for every lookup below.

    Raises:
        BloodFeudError: key "power_range", not a whole number from 1 to 6 (§B2).
    """
    if isinstance(power, bool) or not isinstance(power, int) or power not in POWERS:
        who = f" of {team}" if team else ""
        raise BloodFeudError("power_range", "§B2",
                             f"Power{who} refused: {power!r} is not a whole number from 1 to 6",
                             power=power, team=team)
    return power


def voting_power(power: int) -> int:
    """The fingers a team raises in a Council vote: its current Power (§B9)."""
    return check_power(power)


def quorum(team_count: int) -> int:
    """Teams that must have a player at the station for a Council vote (§B9) or an Alliance
    action (§B4): half of the teams, rounded up.

    Raises:
        BloodFeudError: key "team_count", fewer than 1 team (§B2).
    """
    if isinstance(team_count, bool) or not isinstance(team_count, int) or team_count < 1:
        raise BloodFeudError("team_count", "§B2",
                             f"Quorum refused: {team_count!r} is not a number of teams",
                             team_count=team_count)
    return (team_count + 1) // 2


Band = TypeVar("Band", MarketplaceBonus, CouncilBonus)


def _band(bands: Sequence[Band], power: int) -> Band:
    """The band of `bands` that `power` falls in."""
    check_power(power)
    return next(b for b in bands if b.powers[0] <= power <= b.powers[1])


def marketplace_bonus(power: int) -> MarketplaceBonus:
    """The Marketplace bonus actions of a team at `power` (§B7).

    Raises:
        BloodFeudError: key "power_range" (§B2).
    """
    return _band(MARKETPLACE_BONUSES, power)


def council_bonus(power: int) -> CouncilBonus:
    """The Council bonus actions of a team at `power` (§B10).

    Raises:
        BloodFeudError: key "power_range" (§B2).
    """
    return _band(COUNCIL_BONUSES, power)


def _check_cost(cost: int) -> int:
    """`cost` if it is a Cost a Market item can print (a whole number, 0 or more)."""
    if isinstance(cost, bool) or not isinstance(cost, int) or cost < 0:
        raise BloodFeudError("cost_range", "§B6",
                             f"Cost refused: {cost!r} is not a whole number of 0 or more",
                             cost=cost)
    return cost


def _check_discount(power: int, discount: bool) -> int:
    """How much lower a Cost counts: the Power-keyed discount, when asked for and available."""
    cut = marketplace_bonus(power).cost_discount
    if discount and not cut:
        raise BloodFeudError("bonus_not_available", "§B7",
                             f"Discount refused: a team at Power {power} has no Cost discount; "
                             "only Power 1 does", power=power)
    return cut if discount else 0


def store_cap(power: int, discount: bool = False) -> int:
    """The highest Cost a team at `power` may Store for free, once a round (§B6); with the
    Power 1 discount used on this store, 1 more (§B6 ruling).

    Raises:
        BloodFeudError: key "power_range" (§B2); "bonus_not_available", a discount asked for at
            a Power that has none (§B7).
    """
    check_power(power)
    return power + _check_discount(power, discount)


def may_store(cost: int, power: int, discount: bool = False) -> bool:
    """Whether a team at `power` may Store an item of `cost` (§B6).

    Raises:
        BloodFeudError: keys "cost_range" (§B6), "power_range" (§B2), "bonus_not_available"
            (§B7).
    """
    return _check_cost(cost) <= store_cap(power, discount)


def purchase_price(cost: int, power: int, discount: bool = False) -> int:
    """Assets a team at `power` pays for an item of `cost`, with or without its once-a-round
    discount (§B6, §B7).

    Raises:
        BloodFeudError: keys "cost_range" (§B6), "power_range" (§B2), "bonus_not_available"
            (§B7); "not_in_aid", the discount on a Cost of 0, which the aid leaves open (§B6).
    """
    cut = _check_discount(power, discount)
    if cut and _check_cost(cost) < cut:
        raise BloodFeudError("not_in_aid", "§B6",
                             "Price refused: the aid does not say what a Cost of 0 becomes "
                             "when counted 1 lower", cost=cost, power=power)
    return _check_cost(cost) - cut


def may_stop_alliance(blocker: int, first: int, second: int) -> bool:
    """Whether a player whose team is at Power `blocker` may stop an Alliance proposed between
    teams at Powers `first` and `second`: at most the lower of the two (§B4 ruling).

    Raises:
        BloodFeudError: key "power_range" (§B2).
    """
    return check_power(blocker) <= min(check_power(first), check_power(second))


def may_answer_block(blocker: int, first: int, second: int) -> bool:
    """Whether teams at Powers `first` and `second`, named in a Block by a team at `blocker`,
    may ally in answer: at least one of them at or below the blocker's Power (§B4 ruling).

    Raises:
        BloodFeudError: key "power_range" (§B2).
    """
    return min(check_power(first), check_power(second)) <= check_power(blocker)


class PlacedOrder(Record):
    """An Order laid on a Domain space of the Orders board (§B5)."""

    team: Name
    """The team that placed it."""
    power: StrictInt
    """The team's Power when the Orders resolve."""
    order: str = Field(default="", max_length=60)
    """What it is, e.g. Attack; only shown."""


class OrderResolution(Record):
    """The Orders of one Domain space in the order they take effect (§B5)."""

    resolve: tuple[PlacedOrder, ...]
    """The Orders that resolve, least Power first; equal Powers in the order played."""
    skipped: tuple[PlacedOrder, ...]
    """Later Orders of a team that already had one on the space: they do not resolve."""


def resolution_order(placed: Sequence[PlacedOrder]) -> OrderResolution:
    """Which Orders on one Domain space resolve, and in what order; `placed` is in the order
    they were played (§B5 and its ruling).

    Raises:
        BloodFeudError: key "power_range" (§B2).
    """
    first: list[PlacedOrder] = []
    skipped: list[PlacedOrder] = []
    seen: set[str] = set()
    for p in placed:
        check_power(p.power, p.team)
        key = p.team.casefold()
        (skipped if key in seen else first).append(p)
        seen.add(key)
    return OrderResolution(resolve=tuple(sorted(first, key=lambda p: p.power)),
                           skipped=tuple(skipped))


class PowerFacts(Record):
    """Everything the aids key by one Power, in one place (§B2)."""

    power: int
    """The Power looked up, 1–6."""
    voting_power: int
    """Fingers raised in a Council vote (§B9)."""
    store_cap: int
    """Highest Cost Stored for free, without the discount (§B6)."""
    marketplace: MarketplaceBonus
    """Marketplace bonus actions (§B7)."""
    council: CouncilBonus
    """Council bonus actions (§B10)."""


def power_facts(power: int) -> PowerFacts:
    """What a team at `power` gets from the aids' Power-keyed rules (§B2).

    Raises:
        BloodFeudError: key "power_range" (§B2).
    """
    return PowerFacts(power=check_power(power), voting_power=voting_power(power),
                      store_cap=store_cap(power), marketplace=marketplace_bonus(power),
                      council=council_bonus(power))
