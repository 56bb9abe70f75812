import assert from 'node:assert/strict'
import { rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { ownerPrincipal } from '../../src/auth/principal.ts'
import { processImage, variantWidths } from '../../src/media/image-pipeline.ts'
import { purgeUnusedFiles } from '../../src/media/file-purge.ts'
import { STORAGE_KEY, variantKey } from '../../src/media/storage.ts'
import { uploadService } from '../../src/media/uploads.ts'
import { deleteProfile } from '../../src/core/profile-deletion.ts'
import { nowIso } from '../../src/store/db.ts'
import { filesRepository } from '../../src/store/files.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { animatedGif, solid } from './images.ts'
import { startLocalS3 } from './local-s3.ts'

/** Runs the pipeline on `bytes` as an upload would (from a file on disk). */
async function processBytes(bytes: Buffer, options?: { variants: boolean }) {
  const file = join(tmpdir(), `slotline-variant-${process.pid}-${Math.random().toString(16).slice(2)}`)
  writeFileSync(file, bytes)
  try {
    return await processImage(file, options)
  } finally {
    rmSync(file, { force: true })
  }
}

describe('WebP variants in the image pipeline', () => {
  it('makes a 400 px and an 800 px WebP of a wide png, in proportion', async () => {
    const image = await processBytes(await solid(1600, 900, 'png'))
    assert.deepEqual([image.width, image.height], [800, 450])
    assert.deepEqual(
      image.variants.map((v) => [v.width, v.height]),
      [
        [400, 225],
        [800, 450],
      ],
    )
    for (const v of image.variants) {
      const meta = await sharp(v.data).metadata()
      assert.deepEqual([meta.format, meta.width, meta.height], ['webp', v.width, v.height])
    }
  })

  it('makes 400 px and full width for an image between 400 and 800 px wide', async () => {
    const image = await processBytes(await solid(640, 480, 'jpeg'))
    assert.deepEqual(
      image.variants.map((v) => v.width),
      [400, 640],
    )
  })

  it('makes only the 400 px copy of a WebP upload (the upload itself is the full-width WebP)', async () => {
    const image = await processBytes(await solid(1000, 500, 'webp'))
    assert.equal(image.ext, 'webp')
    assert.deepEqual(
      image.variants.map((v) => v.width),
      [400],
    )
  })

  it('makes none for a gif, an image at most 400 px wide, or when asked not to (Precognition)', async () => {
    assert.deepEqual((await processBytes(await animatedGif())).variants, [])
    assert.deepEqual((await processBytes(await solid(400, 300, 'png'))).variants, [])
    assert.deepEqual((await processBytes(await solid(1600, 900, 'png'), { variants: false })).variants, [])
  })

  it('names the widths by rule', () => {
    assert.deepEqual(variantWidths(800, 'jpg'), [400, 800])
    assert.deepEqual(variantWidths(401, 'png'), [400, 401])
    assert.deepEqual(variantWidths(400, 'png'), [])
    assert.deepEqual(variantWidths(800, 'webp'), [400])
  })

  it('keys a variant beside its upload, and only such keys pass the storage check', () => {
    assert.equal(variantKey('u7/abcdefghijklmnopqrstuv.png', 400), 'u7/abcdefghijklmnopqrstuv.w400.webp')
    assert.ok(STORAGE_KEY.test('u7/abcdefghijklmnopqrstuv.w400.webp'))
    for (const key of [
      'u7/abcdefghijklmnopqrstuv.w400.png',
      'u7/abcdefghijklmnopqrstuv.w.webp',
      'u7/abcdefghijklmnopqrstuv.x400.webp',
      'u7/../abcdefghijklmnop.w400.webp',
    ]) {
      assert.ok(!STORAGE_KEY.test(key), key)
    }
  })
})

for (const driver of ['disk', 's3'] as const) {
  describe(`Uploads with WebP variants (${STORE}, ${driver} storage)`, () => {
    let t: TestApp
    let s3: Awaited<ReturnType<typeof startLocalS3>> | undefined
    let wide: Buffer
    before(async () => {
      s3 = driver === 's3' ? await startLocalS3() : undefined
      t = await startApp(s3?.env ?? {})
      wide = await solid(1600, 900, 'png')
    })
    after(async () => {
      await t.close()
      await s3?.close()
    })

    const upload = async (userId: number, bytes: Buffer) =>
      (await uploadService.fromStream(t.ctx, userId, Readable.from(bytes), bytes.length, { dryRun: false }))!
    const variantRows = (path: string) =>
      (t.ctx.db as any)
        .selectFrom('files')
        .select(['path', 'mime', 'width', 'height', 'user_id'])
        .where('variant_of', '=', path)
        .orderBy('width')
        .execute() as Promise<Array<{ path: string; mime: string; width: number; height: number; user_id: number }>>
    const served = async (path: string) => {
      const res = await fetch(`${t.url}/static/${path}`)
      return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) }
    }
    const ageFiles = (paths: string[], daysAgo: number) =>
      t.ctx.db
        .updateTable('files')
        .set({ created_at: new Date(Date.now() - daysAgo * 86_400_000).toISOString() })
        .where('path', 'in', paths)
        .execute()

    it('stores both variants beside the upload through the same storage and serves them as WebP', async () => {
      const { user } = await makeAccount(t)
      const file = await upload(user.id, wide)
      const rows = await variantRows(file.path)
      assert.deepEqual(
        rows.map((r) => [r.path, r.mime, r.width, r.height, r.user_id]),
        [
          [variantKey(file.path, 400), 'image/webp', 400, 225, user.id],
          [variantKey(file.path, 800), 'image/webp', 800, 450, user.id],
        ],
      )
      for (const row of rows) {
        const res = await served(row.path)
        assert.equal(res.status, 200)
        assert.equal(res.type, 'image/webp')
        const meta = await sharp(res.bytes).metadata()
        assert.deepEqual([meta.format, meta.width], ['webp', row.width])
      }
      const images = await filesRepository.imagesByPath(t.ctx.db, [file.path])
      assert.deepEqual(images.get(file.path), {
        mime: 'image/png',
        width: 800,
        height: 450,
        variants: rows.map((r) => ({ path: r.path, width: r.width })),
      })
    })

    it('keeps a gif as it is, with no variants', async () => {
      const { user } = await makeAccount(t)
      const file = await upload(user.id, await animatedGif())
      assert.deepEqual(await variantRows(file.path), [])
      assert.deepEqual((await filesRepository.imagesByPath(t.ctx.db, [file.path])).get(file.path)?.variants, [])
    })

    it('refuses a variant path in a slot: only uploads themselves are yours to place', async () => {
      const { user, token } = await makeAccount(t)
      const profile = await makeProfile(t, user)
      const file = await upload(user.id, wide)
      const res = await t.request('POST', `/v1/profiles/${profile.id}/slots`, { token, body: { type: 'picture', data: { path: variantKey(file.path, 400) } } })
      assert.equal(res.status, 422)
      assert.deepEqual(Object.keys(res.body.errors), ['data.path'])
    })

    it('purges the variants of an unused upload with it, and keeps those of a used one', async () => {
      const { user } = await makeAccount(t)
      const profile = await makeProfile(t, user)
      const unused = await upload(user.id, wide)
      const used = await upload(user.id, wide)
      const all = [unused.path, used.path, ...[unused.path, used.path].flatMap((p) => [variantKey(p, 400), variantKey(p, 800)])]
      await ageFiles(all, 30)
      const now = nowIso()
      await t.ctx.db
        .insertInto('slots')
        .values({
          profile_id: profile.id,
          type: 'picture',
          position: 0,
          data: JSON.stringify({ path: used.path, link: '', size: 'large' }),
          created_at: now,
          updated_at: now,
        })
        .execute()

      const result = await purgeUnusedFiles(t.ctx, 7 * 86_400_000)
      const gone = [unused.path, variantKey(unused.path, 400), variantKey(unused.path, 800)]
      assert.deepEqual(result.removed.map((f) => f.path).sort(), gone.sort())
      assert.deepEqual(result.failed, [])
      for (const path of gone) assert.equal((await served(path)).status, 404, path)
      for (const path of [used.path, variantKey(used.path, 400), variantKey(used.path, 800)]) assert.equal((await served(path)).status, 200, path)
      assert.deepEqual(await variantRows(unused.path), [])
      assert.equal((await variantRows(used.path)).length, 2)
    })

    it('deletes the variants with the page that alone used their upload', async () => {
      const { user } = await makeAccount(t)
      const profile = await makeProfile(t, user)
      const file = await upload(user.id, wide)
      const now = nowIso()
      await t.ctx.db
        .insertInto('slots')
        .values({
          profile_id: profile.id,
          type: 'gallery',
          position: 0,
          data: JSON.stringify({ title: '', items: [{ path: file.path, text: '', link: '' }] }),
          created_at: now,
          updated_at: now,
        })
        .execute()

      const deleted = await deleteProfile(t.ctx, ownerPrincipal(user), profile.id, { confirmLogin: profile.login })
      const gone = [file.path, variantKey(file.path, 400), variantKey(file.path, 800)]
      assert.deepEqual([...deleted.removedFiles].sort(), gone.sort())
      for (const path of gone) assert.equal((await served(path)).status, 404, path)
      assert.deepEqual(await variantRows(file.path), [])
    })
  })
}
