"""Refusals in plain words: a validation problem says where it is and what is wrong, not the
validator's jargon (hostile files, seen in the restore preview and the CLI)."""

import pytest
from pydantic import ValidationError

from companion.rules.catalogue import CatalogueError, parse
from companion.rules.errors import brief
from models.commands import COMMAND_ADAPTER


def refusal(doc: dict) -> str:
    with pytest.raises(ValidationError) as caught:
        COMMAND_ADAPTER.validate_python(doc)
    return brief(caught.value)


def test_an_unknown_field_a_missing_one_and_a_wrong_type_are_said_plainly() -> None:
    extra = refusal({"type": "next_step", "hack": 1})
    assert extra.startswith("next_step.hack: a field this format does not have")
    assert "Extra inputs" not in extra
    assert "missing" in refusal({"type": "apply_effect", "action": "gain_blood"})
    wrong = refusal({"type": "apply_effect", "action": "gain_blood", "player": 0,
                     "amount": "lots"})
    assert "amount: should be a whole number" in wrong


def test_a_catalogue_with_an_unknown_field_names_the_card_and_says_it_plainly() -> None:
    with pytest.raises(CatalogueError) as caught:
        parse({"allies": [{"id": "X1", "name": "Someone", "evil": True}]})
    said = str(caught.value)
    assert "card X1" in said and "a field this format does not have" in said
