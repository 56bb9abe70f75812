import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { embeddedIpv4, isPublicAddress } from '../../src/media/ip-policy.ts'

describe('isPublicAddress', () => {
  it('refuses every special-purpose IPv4 range', () => {
    for (const address of [
      '0.0.0.0',
      '0.1.2.3',
      '10.0.0.1',
      '100.64.0.1',
      '100.127.255.254',
      '127.0.0.1',
      '127.255.255.255',
      '169.254.169.254',
      '172.16.0.1',
      '172.31.255.255',
      '192.0.0.8',
      '192.0.2.1',
      '192.168.0.1',
      '198.18.0.1',
      '198.51.100.7',
      '203.0.113.9',
      '224.0.0.251',
      '239.255.255.250',
      '240.0.0.1',
      '255.255.255.255',
    ]) {
      assert.equal(isPublicAddress(address), false, address)
    }
  })

  it('refuses loopback, unspecified, link-local, unique-local, multicast and documentation IPv6', () => {
    for (const address of ['::1', '::', 'fe80::1', 'fc00::1', 'fdff:ffff::1', 'ff02::1', 'fec0::1', '2001:db8::1', '100::1', '2001::1']) {
      assert.equal(isPublicAddress(address), false, address)
    }
  })

  it('judges IPv6 forms that carry an IPv4 address by that address', () => {
    for (const address of [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.1.2.3',
      '::ffff:a9fe:a9fe',
      '::127.0.0.1',
      '::ffff:0:127.0.0.1',
      '64:ff9b::10.0.0.1',
      '2002:c0a8:0101::1',
    ]) {
      assert.equal(isPublicAddress(address), false, address)
    }
    assert.equal(isPublicAddress('::ffff:8.8.8.8'), true)
    assert.equal(embeddedIpv4('2002:c0a8:0101::1'), '192.168.1.1')
    assert.equal(embeddedIpv4('::ffff:7f00:1'), '127.0.0.1')
  })

  it('accepts globally routable unicast addresses', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001::200e']) {
      assert.equal(isPublicAddress(address), true, address)
    }
  })

  it('refuses what is not an address at all, and zoned addresses', () => {
    for (const address of ['', 'localhost', '127.0.0.1.nip.io', '2130706433', 'fe80::1%eth0', '1.2.3']) {
      assert.equal(isPublicAddress(address), false, address)
    }
  })
})
