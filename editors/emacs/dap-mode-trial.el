;;; dap-mode-trial.el --- a batch trial of the README's dap-mode configuration  -*- lexical-binding: t -*-
;; From the repository root, with symdbg on the PATH and Debian's elpa-dap-mode (Emacs 28):
;;   OUT=/tmp/out.txt emacs --batch -l editors/emacs/dap-mode-trial.el
;; It evaluates the README's dap-mode block as it is, sets a breakpoint on
;; examples/safe_ratio.py:32, starts the template, continues past the entry stop to the
;; breakpoint and writes the threads, scopes and an evaluation to $OUT.
(package-initialize)
(require 'dap-mode)
(require 'subr-x)
(defvar trial-out nil)
(defun trial-log (fmt &rest args) (push (apply #'format fmt args) trial-out))
;; The README's dap-mode block, evaluated as it is.
(with-temp-buffer
  (insert-file-contents "README.md")
  (re-search-forward "^;; dap-mode")
  (let ((start (line-beginning-position)))
    (re-search-forward "^```")
    (let ((forms (read (concat "(progn " (buffer-substring start (line-beginning-position)) ")"))))
      (eval forms t))))
(defvar trial-stops 0)
(add-hook 'dap-stopped-hook (lambda (_s) (setq trial-stops (1+ trial-stops))))
(defun trial-wait (n)
  (let ((k 0))
    (while (and (< trial-stops n) (< k 1200))
      (accept-process-output nil 0.05)
      (setq k (1+ k)))
    (>= trial-stops n)))
(find-file "examples/safe_ratio.py")
(goto-char (point-min))
(forward-line 31)
(dap-breakpoint-add)
(dap-debug (copy-tree (cdr (assoc "symdbg: this file" dap-debug-template-configurations))))
(trial-log "stopped on entry: %s" (trial-wait 1))
(let* ((s (dap--cur-session)))
  (dap-request s "continue" :threadId (dap--debug-session-thread-id s))
  ;; dap-mode runs dap-stopped-hook only when it selects a new thread: wait for the
  ;; stopped event's effect on the stack instead.
  (let ((k 0) line)
    (while (and (not (equal line 32)) (< k 600))
      (accept-process-output nil 0.05)
      (setq line (ignore-errors
                   (gethash "line" (seq-first (gethash "stackFrames"
                     (dap-request s "stackTrace" :threadId (dap--debug-session-thread-id s))))))
            k (1+ k)))
    (trial-log "stopped at the breakpoint: %s" (equal line 32)))
  (let* ((thread (dap--debug-session-thread-id s))
         (frames (gethash "stackFrames" (dap-request s "stackTrace" :threadId thread)))
         (top (seq-first frames)))
    (trial-log "top frame: %s line %s" (gethash "name" top) (gethash "line" top))
    (trial-log "threads: %s"
               (mapconcat (lambda (th) (gethash "name" th))
                          (gethash "threads" (dap-request s "threads")) "; "))
    (seq-doseq (scope (gethash "scopes" (dap-request s "scopes" :frameId (gethash "id" top))))
      (trial-log "scope %s:" (gethash "name" scope))
      (seq-doseq (v (gethash "variables" (dap-request s "variables" :variablesReference (gethash "variablesReference" scope))))
        (trial-log "  %s = %s" (gethash "name" v) (gethash "value" v))))
    (trial-log "evaluate: %s" (gethash "result" (dap-request s "evaluate" :expression "part % whole" :frameId (gethash "id" top) :context "repl"))))
  (dap-disconnect s))
(with-temp-file (or (getenv "OUT") "dap-mode-trial.txt")
  (insert (string-join (reverse trial-out) "\n") "\n"))
