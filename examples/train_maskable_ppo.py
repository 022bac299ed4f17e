"""Train a MaskablePPO policy (sb3-contrib, CPU) on Star Commander or Galactic Empires
(``--game ge``), then measure it in the arena.

    pip install 'starcom[rl]'
    python examples/train_maskable_ppo.py --minutes 60 --out ppo_starcom.zip
    python examples/train_maskable_ppo.py --evaluate ppo_starcom.zip --games 200
    python examples/train_maskable_ppo.py --game ge --minutes 60 --out ppo_ge.zip
    python examples/train_maskable_ppo.py --game ge --evaluate ppo_ge.zip --games 100

The learner plays one seat of ``starcom.rl.gym_env`` (the seat rotates from episode to episode)
against built-in AIs; each of the ``--envs`` environments (one process each) takes the next
opponent of ``--opponents`` in turn. The reward is the learner's return at the end of a game,
wherever in the other seats' moves the game ended: the Gymnasium environment plays the
opponents inside ``step``, so no reward is lost between the learner's turns.

Two terms of the training objective are this example's, not the environment's. Each of the
learner's actions costs ``--step-cost`` (0.001), and a game cut off at the environment's action
cap counts as a loss; rewards are not discounted (``gamma`` 1: every game ends, at the cap at
the latest). Without these, discounting makes a long stall (build, scrap, build, …) worth about
as much as a loss the policy sees coming, and policies trained so drifted into stalling.
"""
from __future__ import annotations

import argparse
import sys
import time


def make_env(game: str, opponent: str, seed: int, players: int, size: int, step_cost: float):  # type: ignore[no-untyped-def]
    def build():  # type: ignore[no-untyped-def]
        import gymnasium as gym
        import torch

        import starcom.rl

        torch.set_num_threads(1)

        class Flat(gym.ObservationWrapper):  # the vector alone; the mask through action_masks()
            def __init__(self, env):  # type: ignore[no-untyped-def]
                super().__init__(env)
                self.observation_space = env.observation_space["observation"]

            def observation(self, obs):  # type: ignore[no-untyped-def]
                return obs["observation"]

            def action_masks(self):  # type: ignore[no-untyped-def]
                return self.env.action_masks()

            def step(self, action):  # type: ignore[no-untyped-def]
                obs, reward, terminated, truncated, info = super().step(action)
                reward -= step_cost
                if truncated:  # the action cap: a loss, and final (no value bootstrapped past it)
                    info["stalled"] = True
                    reward, terminated, truncated = reward - 1.0, True, False
                return obs, reward, terminated, truncated, info

        env = Flat(starcom.rl.gym_env(game=game, opponents=opponent, seat="rotate", players=players, size=size))
        env.reset(seed=seed)
        return env
    return build


def train(args: argparse.Namespace) -> None:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    torch.set_num_threads(1)  # more threads spin against the environment processes on 2 cores
    opponents = args.opponents.split(",")
    fns = [make_env(args.game, opponents[i % len(opponents)], args.seed + i, args.players, args.size, args.step_cost)
           for i in range(args.envs)]
    vec = SubprocVecEnv(fns) if args.envs > 1 else DummyVecEnv(fns)

    class Clock(BaseCallback):  # stops after --minutes and prints progress once a minute
        def __init__(self) -> None:
            super().__init__()
            self.start = self.last = time.monotonic()
            self.wins = self.games = self.stalled = 0

        def _on_step(self) -> bool:
            for done, r, info in zip(self.locals["dones"], self.locals["rewards"], self.locals["infos"]):
                if done:
                    self.games += 1
                    self.wins += r > 0
                    self.stalled += bool(info.get("stalled"))
            now = time.monotonic()
            if now - self.last >= 60:
                self.last = now
                rate = self.wins / self.games if self.games else 0.0
                print(f"{(now - self.start) / 60:5.1f} min  {self.num_timesteps:>9,} steps  "
                      f"{self.games} games  won {rate:.0%} in training  {self.stalled} cut off", flush=True)
            return now - self.start < args.minutes * 60

    model = MaskablePPO("MlpPolicy", vec, n_steps=args.n_steps, batch_size=256, n_epochs=4, gamma=1.0,
                        learning_rate=3e-4, ent_coef=0.01, seed=args.seed, device="cpu",
                        policy_kwargs={"net_arch": [128, 128]}, verbose=0)
    clock = Clock()
    model.learn(total_timesteps=10**12, callback=clock)
    model.save(args.out)
    vec.close()
    print(f"trained {args.minutes} min: {model.num_timesteps:,} steps, {clock.games} games; saved {args.out}")


def evaluate(args: argparse.Namespace) -> None:
    from starcom.rl.policy import register_policy_agent
    from starcom.sim.arena import ArenaSpec, run_arena

    from starcom.games import get as get_game

    register_policy_agent("ppo", args.evaluate, game=args.game)
    editions = get_game(args.game).rules.editions
    for opponent in args.against.split(","):
        spec = ArenaSpec(agents=("ppo", opponent), games=args.games, players=2, size=args.size, seed=args.seed,
                         game=args.game, edition=editions[0] if editions else "standard")
        result = run_arena(spec)  # in this process: the policy agent is registered here
        ppo = next(r for r in result.agent_results() if r.name == "ppo")
        pair = result.pairs()[0]
        print(f"ppo vs {opponent}: {ppo.wins} wins, {ppo.draws} draws, {ppo.losses} losses in {ppo.games} games "
              f"(win rate {ppo.win_rate:.1%}, score {ppo.score:.1%}, sign test p = {pair.p_value:.3g})", flush=True)
        stopped = result.errors
        if stopped:  # the arena stops a game stuck in one turn: say so rather than hide it
            print(f"  {len(stopped)} game(s) stopped and not counted, e.g.: {stopped[0].error}", flush=True)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="starcom", help="the game to learn: starcom or ge (default starcom)")
    p.add_argument("--minutes", type=float, default=60.0, help="training time (default 60)")
    p.add_argument("--envs", type=int, default=2, help="environments, one process each (default 2)")
    p.add_argument("--opponents", default="random,greedy", help="built-in AIs to train against, in turn")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--size", type=int, default=3)
    p.add_argument("--n-steps", type=int, default=1024, help="PPO rollout length per environment")
    p.add_argument("--step-cost", type=float, default=0.001, help="reward taken for each of the learner's actions")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="ppo_starcom.zip", help="where to save the policy")
    p.add_argument("--evaluate", metavar="MODEL", help="measure a saved policy in the arena instead of training")
    p.add_argument("--against", default="random,greedy", help="arena opponents (with --evaluate)")
    p.add_argument("--games", type=int, default=200, help="arena games per opponent (with --evaluate)")
    args = p.parse_args(argv)
    if args.envs < 1 or args.minutes <= 0 or args.games < 1 or not 0 <= args.step_cost < 1:
        p.error("--envs and --games must be at least 1, --minutes above 0 and --step-cost in [0, 1)")
    evaluate(args) if args.evaluate else train(args)


if __name__ == "__main__":
    sys.exit(main())
