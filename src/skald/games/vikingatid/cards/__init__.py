"""Vikingatid's cards: their data (`data`, read from `data/cards.toml`), the rule options they open (`options`), the
deck and hands (`deck`), the windows they are played in (`windows`), the card under way (`play`), the shape of an
effect (`effect`), each card's effect by the part of the turn it acts on (`journey`, `fights`, `kingdoms`,
`elections`), and all of them gathered by kind (`effects`)."""
