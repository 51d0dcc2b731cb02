"""The game served in a browser: textual-serve's server, extended around its seams
(``server.py``, its page in ``templates/``)."""
