"""Browser fixtures: skip cleanly without Chromium or Playwright."""

from collections.abc import Iterator

import pytest

from tests.browser.harness import CHROMIUM, LAUNCH_ARGS, missing

REASON = missing()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if REASON:
        for item in items:
            if "tests/browser" in str(item.fspath):
                item.add_marker(pytest.mark.skip(reason=f"browser tests skipped: {REASON}"))


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        yield b
        b.close()
