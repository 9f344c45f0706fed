from dataclasses import replace
from .conftest import ANA, BO, CY, GROUP, Harness


async def test_print(harness: Harness):
    ana = replace(ANA, language_code="zh-hans")
    await harness.start()
    mark = len(harness.api.calls)
    harness.say(ana, "/lang")
    await harness.settle()
    for c in harness.api.calls[mark:]:
        print(c.method, c.chat_id, repr((c.params.get("text") or "")[:300]), c.params.get("reply_markup", "")[:300] if isinstance(c.params.get("reply_markup"), str) else c.params.get("reply_markup"))
    mark = len(harness.api.calls)
    harness.say(ana, "/lang", chat=ana.id)
    await harness.settle()
    for c in harness.api.calls[mark:]:
        print(c.method, c.chat_id, repr((c.params.get("text") or "")[:300]), c.params.get("reply_markup"))
