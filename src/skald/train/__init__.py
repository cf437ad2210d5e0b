"""Self-play training of a learned bot (`skald train GAME`): games played by the network-guided search, a network
trained on their positions, and the model file that the `learned` bot plays with.

`selfplay` plays the games (numpy only, so that any worker of a process pool or a Ray cluster can run it);
`buffer` keeps their positions; `trainer` fits the network with PyTorch (the `train` extra); `run` ties them into
rounds with checkpoints that a stopped run resumes from.
"""
