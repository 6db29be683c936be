"""Local services stay local: a local Dask cluster's scheduler on the
loopback and its dashboard there too; the viewer answers only its own ``Host`` (DNS
rebinding) and a bad query value is a 400 or 404, never a 500."""

import pytest

from arena.presentation.web import create_app, own_host


def test_a_local_dask_cluster_has_no_dashboard_and_a_loopback_scheduler(registry):
    pytest.importorskip("distributed")
    from arena.tournament.dask_executor import DaskExecutor

    def started(**options):
        executor = DaskExecutor(1, registry=registry, cluster_options=options)
        executor.start()
        try:
            cluster = executor.cluster
            server = cluster.scheduler.services.get("dashboard")
            bound = {s.getsockname()[0] for s in (server._sockets.values() if server else ())}
            return cluster.scheduler_address, bound
        finally:
            executor.close()

    address, dashboard = started()
    assert address.startswith("tcp://127.0.0.1:") and dashboard <= {"127.0.0.1"}
    # the control: the former option serves the dashboard on every interface
    _, dashboard = started(dashboard_address=":0")
    assert dashboard & {"0.0.0.0", "::"}


@pytest.fixture(scope="module")
def viewer(viewer_results):
    app = create_app(viewer_results, host="10.1.2.3", port=8123)
    return app.test_client()


@pytest.mark.parametrize(
    "host, answered",
    [
        ("localhost", True),
        ("localhost:8123", True),
        ("127.0.0.1:8123", True),
        ("[::1]:8123", True),
        ("[::1]", True),
        ("10.1.2.3:8123", True),
        ("LOCALHOST:8123", True),
        ("evil.example", False),
        ("evil.example:8123", False),
        ("localhost:8124", False),
        ("localhost.evil.example:8123", False),
        ("", False),
        ("127.0.0.1:x", False),
    ],
)
def test_the_viewer_answers_only_its_own_host(viewer, host, answered):
    response = viewer.get("/api/count", headers={"Host": host})
    assert response.status_code == (200 if answered else 400)


def test_own_host_without_a_known_port_takes_any_port():
    assert own_host("localhost:5000", {"localhost"}, None)
    assert not own_host("attacker.example:5000", {"localhost"}, None)


BAD_VIEWS = ["²", "٣", "-1", "99", "1.5", "0x1", " 1", "", "table ", "1e3", "\x00", "%ff"]
BAD_REFS = ["0", "-1", "999999", "abc", "1.5", "²", "%00", "x" * 300, "1' or '1'='1"]
BAD_BOTS = ["nobody", "²", "%00", "../../etc/passwd", "x" * 300]


def test_bad_query_values_are_400_or_404_never_500(viewer):
    assert "²".isdigit()  # the hazard: isdigit() takes it, int() does not
    with pytest.raises(ValueError):
        int("²")
    statuses = {}
    for view in BAD_VIEWS:
        statuses[f"/game/1?view={view}"] = viewer.get("/game/1", query_string={"view": view})
    for ref in BAD_REFS:
        statuses[f"/game/{ref}"] = viewer.get(f"/game/{ref}")
    for name in BAD_BOTS:
        statuses[f"/bot/{name}"] = viewer.get(f"/bot/{name}")
    wrong = {url: r.status_code for url, r in statuses.items() if r.status_code not in (400, 404)}
    assert not wrong
    assert viewer.get("/game/1", query_string={"view": "0"}).status_code == 200  # the control
