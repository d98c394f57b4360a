/**
 * Cutting a show command's output out of a terminal session: the lines between the command's
 * echo after the prompt and the next prompt, with terminal escapes and carriage returns removed;
 * a refused command is an error, never a configuration.
 */
import t from 'tap'
import { hostKeyOf, outputOf, plainText, SshFailure } from '../../../../../src/inventory/discovery/network/ssh/session.js'

t.test('the output between the echo and the next prompt', async (t) => {
  const transcript = 'core-1#terminal length 0\r\ncore-1#show running-config\r\nBuilding configuration...\r\n\r\nhostname core-1\r\nend\r\n\r\ncore-1#'
  t.equal(outputOf(transcript, 'show running-config', 'core-1#'), 'Building configuration...\n\nhostname core-1\nend\n')
  const vtysh = '\u001b[?2004hg1# show running-config\r\n\u001b[?2004lBuilding configuration...\r\n\r\nhostname g1\r\n!\r\nend\r\n\u001b[?2004hg1# '
  t.equal(outputOf(vtysh, 'show running-config', 'g1#'), 'Building configuration...\n\nhostname g1\n!\nend')
})

t.test('a refused command is an error', async (t) => {
  const ios = 'core-1>show running-config\r\n                ^\r\n% Invalid input detected at \'^\' marker.\r\n\r\ncore-1>'
  t.throws(() => outputOf(ios, 'show running-config', 'core-1>'), new SshFailure('command', '"show running-config" was refused: % Invalid input detected at \'^\' marker.'))
  const sh = '$ show running-config\r\nsh: 1: show: command not found\r\n$ '
  t.throws(() => outputOf(sh, 'show running-config', '$'), new SshFailure('command', '"show running-config" was refused: sh: 1: show: command not found'))
  t.throws(() => outputOf('no echo here\r\n', 'show running-config', 'r#'), new SshFailure('command', 'the device did not echo "show running-config" after its prompt'))
})

t.test('terminal decorations are removed', async (t) => {
  t.equal(plainText('ab\u0008c\r\n\u001b[1mx\u001b[0m'), 'ac\nx')
})

t.test('the algorithm and SHA-256 fingerprint of a host key blob', async (t) => {
  const type = Buffer.from('ssh-ed25519')
  const blob = Buffer.concat([Buffer.from([0, 0, 0, type.length]), type, Buffer.from([0, 0, 0, 32]), Buffer.alloc(32, 7)])
  const k = hostKeyOf(blob)
  t.equal(k.algorithm, 'ssh-ed25519')
  t.match(k.fingerprint, /^SHA256:[A-Za-z0-9+/]{43}$/)
})
