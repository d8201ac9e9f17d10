-- RateLimiter.script: its Swift declaration documents KEYS, ARGV and the reply.
local capacity = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local want = tonumber(ARGV[4]) or 1
local giveBack = tonumber(ARGV[5]) or 0
local state = redis.call('HMGET', KEYS[1], 't', 'ts')
local tokens = tonumber(state[1]) or capacity
local at = tonumber(state[2]) or now
local elapsed = math.max(0, now - at)
tokens = math.min(capacity, tokens + elapsed * capacity / window + giveBack)
local granted = math.max(0, math.min(want, math.floor(tokens)))
tokens = tokens - granted
local retry = 0
if granted == 0 then
    retry = math.ceil((1 - tokens) * window / capacity / 1000)
end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'ts', tostring(math.max(now, at)))
redis.call('PEXPIRE', KEYS[1], window + 1000)
return {granted, math.floor(tokens), retry, math.ceil((capacity - tokens) * window / capacity / 1000)}
