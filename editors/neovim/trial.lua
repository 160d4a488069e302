-- A headless trial of the README's nvim-dap configuration, as it is in README.md: from the
-- repository root, with symdbg on the PATH and nvim-dap in $NVIM_DAP (0.4.0 works with
-- Neovim 0.7.2), `OUT=/tmp/out.txt nvim --headless --clean -c "luafile editors/neovim/trial.lua"`.
-- It sets a breakpoint on examples/safe_ratio.py:32, continues past the entry stop to it,
-- and writes what nvim-dap shows (its scopes and threads widgets, the Model scope, an
-- evaluation) to $OUT.
local plugin = os.getenv('NVIM_DAP') or error('set NVIM_DAP to an nvim-dap checkout')
vim.opt.runtimepath:prepend(plugin)
local out = {}
local function log(s) table.insert(out, s) end
local readme = table.concat(vim.fn.readfile('README.md'), '\n')
local snippet = readme:match('### Neovim.-```lua\n(.-)```')
assert(snippet, 'no lua snippet')
assert(loadstring(snippet))()
local dap = require('dap')
vim.cmd('edit examples/safe_ratio.py')
log('filetype: ' .. vim.bo.filetype)
vim.api.nvim_win_set_cursor(0, {32, 0})
dap.toggle_breakpoint()
dap.listeners.after.event_stopped['try'] = function(_, body) log('event stopped: ' .. vim.inspect(body)) end
dap.listeners.after.event_output['try'] = function(_, body) log('event output: ' .. vim.inspect(body.output)) end
dap.continue()
local ok = vim.wait(60000, function()
  local s = dap.session()
  return s and s.stopped_thread_id ~= nil and s.current_frame ~= nil
end, 50)
log('stopped: ' .. tostring(ok))
-- The README's configuration stops on entry: continue (F5 / :DapContinue) to the breakpoint.
local first = dap.session().stopped_thread_id
dap.continue()
ok = vim.wait(60000, function()
  local s = dap.session()
  return s and s.stopped_thread_id ~= nil and s.current_frame ~= nil and s.current_frame.line == 32
end, 50)
log('at the breakpoint: ' .. tostring(ok))
local s = dap.session()
if ok then
  log('frame: ' .. s.current_frame.name .. ' line ' .. s.current_frame.line)
  log('cursor: ' .. vim.inspect(vim.api.nvim_win_get_cursor(0)) .. ' in ' .. vim.fn.expand('%'))
  local widgets = require('dap.ui.widgets')
  local sc = widgets.sidebar(widgets.scopes)
  sc.open()
  vim.wait(5000, function() return #vim.api.nvim_buf_get_lines(sc.buf, 0, -1, false) > 3 end, 50)
  vim.wait(1000)
  log('--- scopes widget:')
  for _, l in ipairs(vim.api.nvim_buf_get_lines(sc.buf, 0, -1, false)) do log(l) end
  local th = widgets.sidebar(widgets.threads)
  th.open()
  vim.wait(2000)
  log('--- threads widget:')
  for _, l in ipairs(vim.api.nvim_buf_get_lines(th.buf, 0, -1, false)) do log(l) end
  local done = false
  s:request('scopes', { frameId = s.current_frame.id }, function(_, resp)
    for _, scope in ipairs(resp.scopes) do
      if scope.name == 'Model' then
        s:request('variables', { variablesReference = scope.variablesReference }, function(_, r)
          log('--- Model scope:')
          for _, v in ipairs(r.variables) do log(v.name .. ' = ' .. v.value) end
          done = true
        end)
      end
    end
  end)
  vim.wait(10000, function() return done end, 50)
  local evaluated = false
  s:request('evaluate', { expression = 'part % whole', frameId = s.current_frame.id, context = 'repl' }, function(err, r)
    log('--- evaluate part % whole: ' .. (err and vim.inspect(err) or r.result))
    evaluated = true
  end)
  vim.wait(10000, function() return evaluated end, 50)
  dap.terminate()
  vim.wait(5000, function() return dap.session() == nil end, 50)
end
vim.fn.writefile(out, os.getenv('OUT') or 'nvim-dap-trial.txt')
vim.cmd('qall!')
