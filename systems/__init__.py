"""Behaviour: esper processors that apply commands to components and report events.

Each module is one system. They import components, esper, numpy and tcod, never ``game`` or pygame,
and they never call one another: their order is declared once, in :mod:`systems.schedule`.
"""
