import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { AppError } from '../../../src/kernel/errors.ts'
import { readElements } from '../../../src/transfer/importers/html-text.ts'
import { ParseBudget } from '../../../src/transfer/importers/parse-budget.ts'

describe('readElements', () => {
  it('reads elements in order, with attributes in any quoting, entities decoded, script and style text left out', async () => {
    const html = `<title>Sam &amp; co</title><h1 class=name>Sam<br>Rivera</h1><p data-x='1'>Hi <script>x()</script><style>p{}</style>there</p>
<a class="button button-github" href="https://github.com/sam?a=1&amp;b=2" HREF="https://other.example">Git<b>Hub</b></a><img src=/me.png class="avatar" alt>`
    const found = await readElements(html, ['title', 'h1', 'p', 'a', 'img'], new ParseBudget(10, 'content'))
    assert.equal(found.title[0].text, 'Sam & co')
    assert.equal(found.h1[0].text.replace(/\s+/g, ' '), 'Sam Rivera')
    assert.equal(found.p[0].text.replace(/\s+/g, ' ').trim(), 'Hi there')
    assert.deepEqual({ ...found.a[0].attrs }, { class: 'button button-github', href: 'https://github.com/sam?a=1&b=2' })
    assert.equal(found.a[0].text.replace(/\s+/g, ' ').trim(), 'Git Hub')
    assert.deepEqual({ ...found.img[0].attrs }, { src: '/me.png', class: 'avatar', alt: '' })
    assert.ok(found.h1[0].at < found.p[0].at && found.p[0].at < found.a[0].at)
  })

  it('returns no element that is never closed, and reads a page of unclosed tags in one pass', async () => {
    const found = await readElements('<a x>'.repeat(200_000), ['a'], new ParseBudget(60, 'content'))
    assert.deepEqual(found.a, [])
  })

  it('refuses with 422 naming the field when the page takes longer than its budget', async () => {
    const budget = new ParseBudget(0.001, 'url')
    await new Promise((resolve) => setTimeout(resolve, 5))
    await assert.rejects(readElements('<p>x</p>'.repeat(10_000), ['p'], budget), (err: unknown) => {
      assert.ok(err instanceof AppError)
      assert.equal(err.status, 422)
      assert.match(err.errors?.url?.[0] ?? '', /could not be read within 0.001 seconds/)
      return true
    })
  })
})
