"""The check daemon: one long-lived process per working folder that answers `dmtool check`.

`dmtool daemon start` leaves a process that keeps the folder's content checked in memory
(validation/live.py); while it runs, `dmtool check` there hands it its arguments over a
private socket and prints its answer, which is the report a check of its own would have
given (`--no-daemon`, `--no-cache` and DMTOOL_NO_DAEMON=1 check in the process itself).
protocol.py: where the socket is and what is said over it; client.py: the console
script's side, standard library only (it runs before click is imported); server.py: the
daemon's loop.
"""
