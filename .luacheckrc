-- luacheck configuration for the SDK and provider scripts.
std = "lua54"
max_line_length = 100
