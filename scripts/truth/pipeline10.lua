-- pipeline10.lua: a wrk script that pipelines HTTP/1.1 requests. Every write
-- sends ten GET requests for the URL's path back to back on the
-- connection, so each connection has ten requests in flight. wrk counts
-- every response as a request but records one latency per batch (from the
-- write to the last response), so its printed figures no longer agree with
-- each other: mean latency times requests/sec divided by connections comes
-- out far from 1 (Little's law), and the percentiles print as 0 (see
-- make-contradictory.sh for why).
-- Used by make-contradictory.sh.
local depth = 10
local batch

init = function(args)
	local requests = {}
	for i = 1, depth do
		requests[i] = wrk.format("GET")
	end
	batch = table.concat(requests)
end

request = function()
	return batch
end
