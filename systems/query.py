"""Reading the components of some entities, the cheap way for how many there are."""

from __future__ import annotations

from typing import Any

import esper


def components_of(entities: set[int] | None, *types: type[Any]) -> list[tuple[int, tuple[Any, ...]]]:
    """``(entity, (component, ...))`` for ``entities`` (every entity when None), in entity order.

    esper's cached query is cheap to walk but costly to rebuild, and a per-entity lookup costs a
    few microseconds, so many entities are read in one query pass and a handful one by one.
    Entities that lack one of the types, or no longer exist, are left out.
    """
    if entities is None or len(entities) > 64:
        found = [(e, parts) for e, parts in esper.get_components(*types) if entities is None or e in entities]
        return sorted(found, key=lambda item: item[0])
    get, exists = esper.component_for_entity, esper.entity_exists
    found = []
    for e in sorted(entities):
        if exists(e):
            try:
                found.append((e, tuple([get(e, kind) for kind in types])))
            except KeyError:  # it lacks one of them
                continue
    return found
