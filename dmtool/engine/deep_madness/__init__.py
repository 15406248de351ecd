"""Deep Madness (Madness Reborn, Rise of Dagon): chapter state, rules R49-R55 and the chapter
vocabulary interpreter, on the shared engine core."""
