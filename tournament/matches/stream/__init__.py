"""A match's stream: the phones following a match told when it moved.

- ``views``: the stream a phone keeps open (``tournament:match_stream``, server-sent events);
- ``door``: who may open one, bounded by client address, by match and in all;
- ``watch``: the one query a second, per process, that tells the streams which matches moved.
"""
