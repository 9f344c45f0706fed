from bot.coordinator.backoff import Backoff


def test_backoff_doubles_from_the_first_delay_up_to_the_cap():
    backoff = Backoff(first=0.5, most=3.0)
    assert [backoff.delay(n) for n in range(1, 6)] == [0.5, 1.0, 2.0, 3.0, 3.0]
    assert backoff.delay(0) == 0.5  # no failure yet counts as the first
