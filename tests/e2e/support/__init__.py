"""What the end-to-end scenarios stand on: the CLI harness (harness.py), the servers they start on
loopback (loopback.py, object_api.py, lease_api.py, json_server.py, etcd_service.py,
forward_proxy.py, shared between workers by shared_servers.py) and helpers of single suites."""
