"""Workshop questions (`explorer.panels.common.exercise.Predict`): numbers within a tolerance, words by meaning."""

from __future__ import annotations

import pytest

from explorer.panels.common.exercise import Predict


def verdict(answer: object, guess: str, **kwargs: object) -> str:
    question = Predict("?", answer, **kwargs)  # type: ignore[arg-type]
    question.guess.value = guess
    question.reveal()
    return question.verdict.value


@pytest.mark.parametrize(("guess", "right"), [("31", True), ("30", True), ("29", False), ("0.31", True), ("2/5", False)])
def test_a_chance_is_right_within_one_point(guess: str, right: bool) -> None:
    assert ("right: within 1 point" in verdict(11 / 36, guess)) is right  # 30.6 %


def test_a_number_is_right_within_five_percent_unless_told() -> None:
    assert "right: within" in verdict(4.0, "4.15", kind="number")
    assert "right: within" not in verdict(4.0, "4.4", kind="number")
    assert "right: within 0.5" in verdict(4.0, "4.4", kind="number", tolerance=0.5)


@pytest.mark.parametrize("guess", ["one more die", "'One more die!'", "a die", "another die", "The die"])
def test_words_that_mean_the_answer_are_right(guess: str) -> None:
    assert "right" in verdict("one more die", guess, kind="text")
    assert "not quite" not in verdict("one more die", guess, kind="text")


@pytest.mark.parametrize(("answer", "guess"), [("one more die", "one more reroll"), ("no one", "attacker"),
                                               ("first", "second"), ("one more die", "reroll")])
def test_other_answers_are_not(answer: str, guess: str) -> None:
    assert "not quite" in verdict(answer, guess, kind="text")


def test_a_question_may_accept_its_own_words() -> None:
    assert "not quite" not in verdict("Magic first", "play magic before leader", kind="text",
                                      accept=("play Magic before Leader",))


def test_the_guess_box_has_a_name_people_and_screen_readers_see() -> None:
    assert Predict("?", 0.5).guess.description == "Your guess"
