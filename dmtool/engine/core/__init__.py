"""The shared engine core: the generator, strict scripts, policies, errors, the rule registry
and the resolution context that every game's rules are written against."""
