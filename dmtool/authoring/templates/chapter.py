"""Template of a new Deep Madness chapter (`dmtool new chapter NAME --expansion X`)."""

from __future__ import annotations

CHAPTER = """\
kind: chapter
id: <<id>>
expansion: <<expansion>>
number: <<number>>
title: <<title>>
source: {rulebook: <<expansion>>, section: <<title>>}  # TODO: the rulebook section
introduction: <<introduction>>  # TODO: in your own words
board:
  # TODO: the room tiles of the board; every room goes in one deck (or gets a note in
  # 'rooms_in_neither_deck').
  rooms: [1, 2, 3, 4]
  rooms_printed: true
  labels:
    - {room: 1, label: Start, role: start}
room_deck: [1, 2]
devoured_deck: [3, 4]
components: []  # TODO: the tokens, figures and cards the chapter uses
monsters:
  - {id: chapter-monster, name: The Chapter Monster, card: unspecified}  # TODO
special_setup:
  steps:
    - The investigators start in room 1.  # TODO: the special setup, step by step
devouring_track:
  values_note: Not written yet.  # TODO: the printed values, as 'values: [...]'
  hazards:
    - skull: black  # TODO: one hazard per skull icon
      summary: Nothing happens yet.
      effects: []
winning:
  - summary: The chapter monster is dead.  # TODO: the winning conditions
    when: {monster_dead: chapter-monster}
losing:
  printed: false  # TODO: true, with 'conditions', when the chapter prints them
  note: No losing condition has been written yet.
"""
