"""The host's pages and API say why an order failed (issue 27, "Results with reasons": "on
the host's pages"): the phase's report, as text and as JSON, with the reason codes."""

from __future__ import annotations

from tests.host.test_api import Table


def test_a_processed_phase_says_why_each_order_failed(client):
    t = Table(client)
    t.order("France", "A Paris - Munich\nF Brest - Paris")
    t.order("Germany", "A Munich - Burgundy")
    t.order("Italy", "A Venice - Piedmont")
    t.order("Austria", "A Vienna - Tyrolia")
    t.order("Russia", "A Warsaw - Galicia")
    assert t.process() == "F1901M"
    rep = client.get(f"/api/play/{t.tokens['England']}/phases/0").json()
    codes = {o["order"]: o["reason"] for s in rep["report_json"]["powers"]
             for o in s["orders"] if o["reason"]}
    assert codes == {"A PAR - MUN": "not_adjacent", "F BRE - PAR": "cannot_stand"}
    assert "A PAR - MUN  (void) — " in rep["report"]
    page = client.get(f"/play/{t.tokens['England']}/phase/0")
    assert page.status_code == 200 and "F BRE - PAR  (void) — a fleet cannot stand in" in \
        page.text
