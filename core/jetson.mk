# core/jetson fragment (owned by the jetson work)
