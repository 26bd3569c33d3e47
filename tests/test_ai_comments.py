"""The engine comment of match records: one format and its parser agree."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardlab.ai.comments import SearchComment, parse_comment

SECONDS = st.integers(0, 99_999).map(lambda c: c / 100)
VALUES = st.integers(-100, 100).map(lambda c: c / 100)


@pytest.mark.parametrize("text,said", [
    ("+0.62/640 0.41s", SearchComment(0.41, 0.62, 640)),
    ("-1.00/12 3.00s", SearchComment(3.0, -1.0, 12)),
    ("+1.00!/2917 4.87s", SearchComment(4.87, 1.0, 2917, proven=True)),
    ("0.02s", SearchComment(0.02)),
])
def test_known_comments_read_and_write_back(text, said):
    assert parse_comment(text) == said
    assert str(said) == text


@pytest.mark.parametrize("text", [
    "", "good move", "+0.62/640", "0.62/640 0.41s", "+0.6/640 0.41s", "+0.62/ 0.41s",
    "+0.62/640 0.4s", "+0.62/640 0.41", "-0.50!/10 1.00s", " +0.62/640 0.41s",
])
def test_other_comments_are_not_search_comments(text):
    assert parse_comment(text) is None


@given(SECONDS, VALUES, st.integers(1, 10**7))
def test_searched_round_trip(seconds, value, visits):
    said = SearchComment(seconds, value, visits)
    assert parse_comment(str(said)) == said


@given(SECONDS, st.integers(1, 10**7))
def test_proven_and_unsearched_round_trip(seconds, visits):
    for said in (SearchComment(seconds, 1.0, visits, proven=True), SearchComment(seconds)):
        assert parse_comment(str(said)) == said


def test_inconsistent_comments_are_refused():
    with pytest.raises(ValueError, match="value and a visit count"):
        SearchComment(1.0, 0.5)
    with pytest.raises(ValueError, match="only a win"):
        SearchComment(1.0, 0.5, 10, proven=True)
