"""Both script hosts take their methods and commands through one check (values.parse_host_methods)."""

from __future__ import annotations

import pytest

from game.scripting import InProcessHost, WorkerHost


@pytest.mark.parametrize("host", [InProcessHost, WorkerHost])
def test_a_command_that_is_no_method_is_refused_alike_by_both_hosts(host: type) -> None:
    with pytest.raises(ValueError, match=r"commands not among methods: \['heal'\]"):
        host({"damage": 2}, ["damage", "heal"])
    with pytest.raises(ValueError, match="invalid bridge method name '1x'"):
        host(["1x"], [])
