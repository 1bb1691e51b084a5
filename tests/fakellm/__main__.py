"""Run the fake LLM server standalone: ``python -m tests.fakellm --script steps.json``."""

from __future__ import annotations

import argparse
import threading

from tests.fakellm.server import FakeLLMServer, load_script


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.fakellm", description=__doc__)
    parser.add_argument("--script", required=True, help="JSON file: a list of steps")
    parser.add_argument("--port", type=int, default=0, help="port (default: any free one)")
    parser.add_argument("--loop", action="store_true", help="repeat the script forever")
    args = parser.parse_args()
    steps, loop = load_script(args.script)
    server = FakeLLMServer(steps, loop=loop or args.loop, port=args.port).start()
    print(server.url, flush=True)
    print(f"  anthropic: ANTHROPIC_BASE_URL={server.anthropic_base_url}", flush=True)
    print(f"  openai:    OPENAI_BASE_URL={server.openai_base_url}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()


if __name__ == "__main__":
    main()
