-- wrk: POST /api/records with a ~1 kB JSON object, the same size as the record the GETs read.
wrk.method = "POST"
wrk.path = "/api/records"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"customer":"bench","segment":"retail","note":"' .. string.rep("x", 960) .. '"}'
