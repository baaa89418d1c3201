/**
 * The scheduler's atomic steps, as Redis Lua scripts (one account's keys share the `{account}` hash tag). Keys under
 * the account base `B`: `B:used` (slots held), `B:held` (submission → slots), `B:until` (submission → hold deadline),
 * `B:runs:<p>` (runs of class p with waiting work → served job count), `B:q:<p>:<run>` (submission → sequence),
 * `B:skips`, `B:done:<submission>` (job ids already released), `B:finished` (completion times), `B:stats`.
 * `I` is the global item hash: submission → JSON { account, priority, run, jobs, seq, enqueuedAt, startedAt? }.
 */

/** ARGV: base, itemsKey, sid, account, prio, run, jobs, now, seqKey, total. Returns 1 when queued, 0 when already known. */
export const ENQUEUE = `
local base, items, sid = ARGV[1], ARGV[2], ARGV[3]
if redis.call('HEXISTS', items, sid) == 1 then return 0 end
local prio, run, jobs, now = ARGV[5], ARGV[6], tonumber(ARGV[7]), tonumber(ARGV[8])
local seq = redis.call('INCR', ARGV[9])
local total = tonumber(ARGV[10] or ARGV[7])
redis.call('HSET', items, sid, cjson.encode({ account = ARGV[4], priority = tonumber(prio), run = run, jobs = jobs, total = total, seq = seq, enqueuedAt = now }))
redis.call('ZADD', base .. ':q:' .. prio .. ':' .. run, seq, sid)
local runs = base .. ':runs:' .. prio
if redis.call('ZSCORE', runs, run) == false then
  -- A run (re)joining its class starts at the class's current virtual time: it neither lost nor banked share while away.
  local served = tonumber(redis.call('HGET', base .. ':served', prio .. '|' .. run) or '0')
  local vt = tonumber(redis.call('GET', base .. ':vt:' .. prio) or '0')
  redis.call('ZADD', runs, math.max(served, vt), run)
end
redis.call('HINCRBY', base .. ':stats', 'waitingJobs', jobs)
return 1
`;

/**
 * ARGV: base, itemsKey, limit, maxSkips, now, maxStart, holdMs. Starts waiting submissions while they fit:
 * classes in order; within a class the run with the least service first (fair share by jobs); an item that does
 * not fit is passed over by smaller ones of its class (backfill) at most maxSkips times, then nothing passes it;
 * a class with waiting work that cannot start blocks every lower class. Returns the started submission ids.
 */
export const DISPATCH = `
local base, items = ARGV[1], ARGV[2]
local limit, maxSkips, now, maxStart, holdMs = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local used = tonumber(redis.call('GET', base .. ':used') or '0')
local started = {}
for prio = 0, 2 do
  local runsKey = base .. ':runs:' .. prio
  local stop = false
  while #started < maxStart do
    local runs = redis.call('ZRANGE', runsKey, 0, -1)
    if #runs == 0 then break end
    local picked, passed = false, {}
    for _, run in ipairs(runs) do
      local qKey = base .. ':q:' .. prio .. ':' .. run
      local head = redis.call('ZRANGE', qKey, 0, 0)[1]
      if head == nil then
        redis.call('ZREM', runsKey, run)
      else
        local raw = redis.call('HGET', items, head)
        if raw == false then
          redis.call('ZREM', qKey, head)
          picked = true
          break
        else
          local item = cjson.decode(raw)
          local jobs = math.min(item.jobs, limit)
          if used + jobs <= limit then
            local score = tonumber(redis.call('ZSCORE', runsKey, run))
            redis.call('ZREM', qKey, head)
            if redis.call('ZCARD', qKey) == 0 then redis.call('ZREM', runsKey, run) else redis.call('ZADD', runsKey, score + jobs, run) end
            redis.call('HINCRBY', base .. ':served', prio .. '|' .. run, jobs)
            redis.call('SET', base .. ':vt:' .. prio, score)
            redis.call('HSET', base .. ':held', head, jobs)
            redis.call('ZADD', base .. ':until', now + holdMs, head)
            redis.call('HDEL', base .. ':skips', head)
            redis.call('HINCRBY', base .. ':stats', 'waitingJobs', -item.jobs)
            redis.call('HINCRBY', base .. ':stats', 'started', 1)
            used = used + jobs
            item.startedAt = now
            item.held = jobs
            redis.call('HSET', items, head, cjson.encode(item))
            table.insert(started, head)
            for _, sid in ipairs(passed) do redis.call('HINCRBY', base .. ':skips', sid, 1) end
            picked = true
            break
          else
            if tonumber(redis.call('HGET', base .. ':skips', head) or '0') >= maxSkips then stop = true break end
            table.insert(passed, head)
          end
        end
      end
    end
    if stop or not picked then
      if redis.call('ZCARD', runsKey) > 0 then stop = true end
      break
    end
  end
  if stop or #started >= maxStart then break end
end
redis.call('SET', base .. ':used', used)
return started
`;

/**
 * ARGV: base, itemsKey, sid, count (-1: everything it holds), jobId ('' : none), now. Releases slots of a started
 * submission; a job id is released once however often its completion is reported. A run that holds fewer slots than
 * the jobs it starts (`total`: jobs held back by `needs:`, or beyond the limit) hands a completed job's slot to its
 * waiting jobs: it keeps min(held, total - completed). Once nothing is held the item is forgotten. Returns the slots
 * released.
 */
export const RELEASE = `
local base, items, sid = ARGV[1], ARGV[2], ARGV[3]
local count, jobId, now = tonumber(ARGV[4]), ARGV[5], tonumber(ARGV[6])
local held = tonumber(redis.call('HGET', base .. ':held', sid) or '0')
if held <= 0 then return 0 end
local n = held
if count >= 0 then
  if jobId ~= '' and redis.call('SADD', base .. ':done:' .. sid, jobId) == 0 then return 0 end
  redis.call('PEXPIRE', base .. ':done:' .. sid, 7 * 24 * 3600 * 1000)
  n = math.min(count, held)
  local raw = redis.call('HGET', items, sid)
  if jobId ~= '' and raw ~= false then
    local item = cjson.decode(raw)
    local total = tonumber(item.total or item.jobs)
    if total > tonumber(item.held or item.jobs) then
      local remaining = total - redis.call('SCARD', base .. ':done:' .. sid)
      if remaining < 0 then remaining = 0 end
      n = held - math.min(held, remaining)
      if n <= 0 then return 0 end
    end
  end
end
if held - n <= 0 then
  redis.call('HDEL', base .. ':held', sid)
  redis.call('ZREM', base .. ':until', sid)
  redis.call('DEL', base .. ':done:' .. sid)
  local raw = redis.call('HGET', items, sid)
  if raw ~= false then
    local item = cjson.decode(raw)
    if item.startedAt then
      local ran = now - item.startedAt
      local mean = tonumber(redis.call('HGET', base .. ':stats', 'meanRunMs') or '0')
      if mean == 0 then mean = ran else mean = mean * 0.9 + ran * 0.1 end
      redis.call('HSET', base .. ':stats', 'meanRunMs', math.floor(mean))
    end
    redis.call('HDEL', items, sid)
  end
  redis.call('ZADD', base .. ':finished', now, sid)
  redis.call('ZREMRANGEBYSCORE', base .. ':finished', '-inf', now - 3600 * 1000)
  redis.call('HINCRBY', base .. ':stats', 'finished', 1)
else
  redis.call('HSET', base .. ':held', sid, held - n)
end
local used = tonumber(redis.call('GET', base .. ':used') or '0') - n
if used < 0 then used = 0 end
redis.call('SET', base .. ':used', used)
redis.call('HINCRBY', base .. ':stats', 'jobsDone', n)
return n
`;

/** ARGV: base, itemsKey, sid. Takes a waiting submission out of its queue (cancelled, or moving account). Returns its JSON or false. */
export const WITHDRAW = `
local base, items, sid = ARGV[1], ARGV[2], ARGV[3]
local raw = redis.call('HGET', items, sid)
if raw == false then return false end
local item = cjson.decode(raw)
if item.startedAt then return false end
local qKey = base .. ':q:' .. item.priority .. ':' .. item.run
redis.call('ZREM', qKey, sid)
if redis.call('ZCARD', qKey) == 0 then redis.call('ZREM', base .. ':runs:' .. item.priority, item.run) end
redis.call('HDEL', base .. ':skips', sid)
redis.call('HDEL', items, sid)
redis.call('HINCRBY', base .. ':stats', 'waitingJobs', -item.jobs)
return raw
`;

/** ARGV: base. Recomputes `used` from the held submissions (after a crash between steps). Returns it. */
export const RECOUNT = `
local base = ARGV[1]
local held = redis.call('HVALS', base .. ':held')
local used = 0
for _, v in ipairs(held) do used = used + tonumber(v) end
redis.call('SET', base .. ':used', used)
return used
`;
