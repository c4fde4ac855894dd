"""The server's IOPub subscribers lose no message while the server is busy (`explorer.serving.iopub`).

A kernel's PUB socket drops messages once its queue to a subscriber is full (about 2,000 messages
with ZeroMQ's default limits), and the explorer's app cell sends about 1,100; a server busy with
another page loses the cell's last messages, its "idle" status among them, and nbclient then
sends the page without its app ("Timeout waiting for IOPub output"). Here a real kernel sends
2,500 display messages of 20 kB while its reader, the server's kind of client, reads nothing for
8 s; every message and the idle status must then arrive.
"""

from __future__ import annotations

import asyncio
import time

from explorer.serving.iopub import ExplorerKernelClient, ExplorerKernelManager

MESSAGES = 2500


async def sent_and_read() -> tuple[int, bool, int]:
    manager = ExplorerKernelManager(kernel_name="python3")
    await manager.start_kernel()
    client = manager.client()
    try:
        client.start_channels()
        await client.wait_for_ready(timeout=60)
        assert isinstance(client, ExplorerKernelClient)
        limit = client.iopub_channel.socket.rcvhwm
        msg_id = client.execute(
            "from IPython.display import display\n"
            f"for i in range({MESSAGES}):\n    display({{'text/plain': 'x' * 20000}}, raw=True)\n")
        time.sleep(8)  # the server busy elsewhere: nothing read (a blocking sleep, as a busy loop)
        received, idle = 0, False
        while not idle:
            msg = await client.get_iopub_msg(timeout=30)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            received += 1
            idle = msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle"
        return received, idle, limit
    finally:
        client.stop_channels()
        await manager.shutdown_kernel(now=True)


def test_no_iopub_message_is_lost_while_the_server_reads_nothing() -> None:
    received, idle, limit = asyncio.run(sent_and_read())
    assert limit == 0, "the IOPub socket keeps ZeroMQ's receive limit"
    assert idle
    assert received == MESSAGES + 3  # busy, execute_input, the displays, idle
