# core/parse fragment (owned by the parse work)
