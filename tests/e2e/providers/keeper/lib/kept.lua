-- What one call kept for a later one: a module's table lives as long as its Lua state, so a
-- function lent to a script for one call (an action's progress, a listing's emit, a resource's
-- d) stays reachable here after that call returned. Careless scripts do this; using what is
-- kept must be an error at the line that tries, never a crash of the provider.
return {}
