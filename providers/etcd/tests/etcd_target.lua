-- The etcd the provider's tests run against: ETCD_ENDPOINT names it, and every key they make is
-- under ETCD_TEST_PREFIX when it is set (tests/e2e/test_testing_kit.py runs them on the
-- etcd-server its other scenarios share, each run in a namespace of its own). Not a test file
-- itself (no _test suffix): the test files require it.
local M = {}

local endpoint = os.getenv("ETCD_ENDPOINT")
if not endpoint or endpoint == "" then
  error("these tests need a running etcd: set ETCD_ENDPOINT, e.g. http://127.0.0.1:2379", 0)
end
M.endpoint = endpoint

M.namespace = os.getenv("ETCD_TEST_PREFIX") or ""

-- A key prefix no other test uses ("NAMESPACE" .. kind .. "-TIME-N/"), so that tests never see
-- each other's keys.
local runs = 0
function M.prefix(kind)
  runs = runs + 1
  return ("%s%s-%d-%d/"):format(M.namespace, kind, os.time(), runs)
end

return M
