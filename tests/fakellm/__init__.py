"""A fake LLM server for tests: the real Anthropic and OpenAI streaming wire formats on 127.0.0.1.

It runs in a background thread, so an in-process SDK, the agent loop or a `mewcode -p`
subprocess can all talk to it. Use the ``fake_llm`` fixture (tests/fakellm/plugin.py):

    fake_llm.script([{"text": "hello"}, {"tool_calls": [{"name": "Read", "input": {...}}]}])
    env = fake_llm.env("anthropic")   # ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, MEWCODE_PROVIDER
    fake_llm.requests[-1].body        # every request is recorded (path, wire, headers, body)
    fake_llm.remaining, fake_llm.served_seconds   # unserved steps; time spent answering

Routes: ``POST /v1/messages`` (Anthropic; base URL ``server.anthropic_base_url``) and
``POST /v1/chat/completions`` (OpenAI; base URL ``server.openai_base_url``, ending in /v1).
Requests with ``"stream": true`` get SSE; others get one plain JSON answer.

The script is a list of steps, one per model request, the same for both wire formats and
JSON-serialisable (``python -m tests.fakellm --script steps.json`` loads it from a file):

    {"text": "...",                      # answer text, streamed in chunk_size pieces
     "thinking": "...", "signature": "sig-1",   # Anthropic thinking block / OpenAI reasoning_content
     "redacted_thinking": "opaque",      # Anthropic only
     "tool_calls": [{"id": "t1", "name": "Read", "input": {...}},
                    {"id": "t2", "name": "Bash", "raw_arguments": "{bad json"}],
     "usage": {"input_tokens": 100, "output_tokens": 20, "cache_read": 0, "cache_write": 0},
     "stop_reason": "end_turn",          # default: tool_use when tool_calls, else end_turn
     "chunk_size": 8,                    # characters per text/thinking/argument fragment
     "delay_ms": 0}                      # sleep between frames (zero latency by default)

Faults:
    {"status": 429, "retry_after": 0}    # HTTP error in the vendor's JSON error shape
    {"status": 529} {"status": 401} {"status": 500}
    {"status": 400, "message": "prompt is too long: 210000 tokens > 200000 maximum"}
    {"text": "partial...", "cut_after_chunks": 3}   # send 3 content fragments, then drop the socket
    ... "cut_clean": true                # end the body cleanly instead, still without the final events
    {"stream_error": "overloaded_error"} # an in-stream error event (after cut_after_chunks, default 0)

A step may also be a callable ``f(body) -> step`` given the parsed request body;
``server.responder = f`` answers every request after the list runs out
(``last_tool_result_text(body)`` and ``last_user_text(body)`` read either format).
When nothing is left the server answers HTTP 500 "fake server: script exhausted".
OpenAI usage maps as prompt_tokens = input + cache_read + cache_write, cached_tokens = cache_read.
"""

from tests.fakellm.server import EXHAUSTED, FakeLLMServer, RecordedRequest, load_script
from tests.fakellm.steps import last_tool_result_text, last_user_text

__all__ = [
    "EXHAUSTED",
    "FakeLLMServer",
    "RecordedRequest",
    "last_tool_result_text",
    "last_user_text",
    "load_script",
]
